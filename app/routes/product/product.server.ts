/**
 * Search page's server side. Outside company mode: the instruments whose code or name matches. In
 * company mode (public setting is_main): the companies whose name matches (GET ?name=), the
 * complaint e-mail, and the choice of a company (POST intent=choose) that is remembered in a cookie
 * and then sends the visitor on (status open) or to the company's loss_url.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor, failureToast } from "~/upstream/client.server";
import { abbreviatedCacheKline, instrumentRows, tradeList } from "~/upstream/market.server";
import { companyMode, complaintEmail, getCompany } from "~/upstream/company.server";
import { watchlistList } from "~/upstream/watchlists.server";
import { searchSchema } from "~/schemas/search";
import { chooseCompanySchema, companySearchSchema } from "~/schemas/company";
import { companyCookie, lossUrlOf } from "~/utils/company.server";
import { readForm, refused } from "~/utils/forms.server";

async function companyPage(request: Request, url: URL) {
  const caller = await callerFor(request);
  const raw = url.searchParams.get("name") ?? "";
  const parsed = companySearchSchema.safeParse({ name: raw });
  const name = parsed.success ? (parsed.data.name ?? "") : "";
  const error = parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
  const [list, email] = await Promise.all([
    error ? null : getCompany(caller, name),
    complaintEmail(caller),
  ]);
  return data(
    {
      mode: "company" as const,
      lang: caller.lang,
      q: raw,
      searched: name !== "",
      companies: list?.ok ? list.data : [],
      complaintEmail: email,
      rows: [],
      sparkHref: null,
      star: null,
      error,
      toast: list ? failureToast(list) : null,
    },
    { status: error ? 400 : 200 },
  );
}

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const url = new URL(request.url);
  if (await companyMode(caller)) return companyPage(request, url);
  const parsed = searchSchema.safeParse({
    searchCurrency: url.searchParams.get("searchCurrency") ?? undefined,
  });
  const q = parsed.success ? (parsed.data.searchCurrency ?? "") : "";
  const error = parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
  const base = {
    mode: "instruments" as const,
    lang: caller.lang,
    companies: [],
    complaintEmail: "",
  };
  if (!q)
    return data({
      ...base,
      q: url.searchParams.get("searchCurrency") ?? "",
      searched: false,
      rows: [],
      sparkHref: null,
      star: null,
      error,
      toast: null,
    });
  const [list, sparks, watch] = await Promise.all([
    tradeList(caller, { searchCurrency: q }),
    abbreviatedCacheKline(caller),
    caller.token ? watchlistList(caller, { init: true }) : null,
  ]);
  const { rows, sparkHref } = instrumentRows(list.ok ? list.data : [], sparks);
  // A signed-in user's rows carry their star (what Favourites holds; back to this search).
  const favourites = watch?.ok ? watch.data.find((l) => l.kind === "favourites") : undefined;
  const star = watch?.ok
    ? { favourites: favourites?.items.map((i) => i.code) ?? [], back: url.pathname + url.search }
    : null;
  return data({
    ...base,
    q,
    searched: true,
    rows,
    sparkHref,
    star,
    error,
    toast: failureToast(list),
  });
}

/** Choosing a company: remembered for three years, then its status decides where the visitor goes. */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, chooseCompanySchema);
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  if (!(await companyMode(caller)))
    return data(
      { refusedIntent: "choose", result: form.reply({ formErrors: ["company:mode_off"] }) },
      { status: 400 },
    );
  const id = form.value.id;
  const to = (await lossUrlOf(caller, id)) ?? "/";
  return redirect(to, { headers: { "Set-Cookie": await companyCookie.serialize(id) } });
}
