/**
 * The copies list's server side: copies of a user (`?uid=`) and/or a provider (`?provider_id=`), of
 * one status (`?status=`), paged, newest first; the providers for the filter; an operator's stop of
 * a copy with a remark its owner sees.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { adminCopies, adminProviders, stopCopy } from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, COPY_STATUS_FILTER, pageParam, statusParam } from "~/utils/console";
import { stopCopySchema } from "~/schemas/operator";
import { detectLang, getT } from "~/i18n.server";

/** The filter asked for: uid, provider and status (anything malformed is left out). */
function filterOf(url: URL) {
  const uid = (url.searchParams.get("uid") ?? "").trim().slice(0, 64);
  const rawProvider = url.searchParams.get("provider_id") ?? "";
  const providerId = /^\d{1,15}$/.test(rawProvider) ? Number(rawProvider) : null;
  const status = statusParam(
    url,
    COPY_STATUS_FILTER.map(([s]) => s),
  );
  return { uid, providerId: providerId || null, status };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const url = new URL(request.url);
  const filter = filterOf(url);
  const page = pageParam(url);
  const [copies, providers] = await Promise.all([
    adminCopies({ request, op }, { ...filter, page }),
    adminProviders({ request, op }),
  ]);
  const list = copies.ok ? copies.data : { data: [], total: 0 };
  return data(
    {
      lang: await detectLang(request),
      ...filter,
      page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      items: list.data,
      providers: providers.ok ? providers.data.map((p) => ({ id: p.id, name: p.name })) : [],
      notice: !copies.ok ? copies.msg : !providers.ok ? providers.msg : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, { stop: stopCopySchema });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r = await stopCopy({ request, op }, v.id, v.remark);
  if (!r.ok)
    return data(
      {
        refusedIntent: form.intent,
        refusedId: v.id,
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["operator"]);
  return operatorRedirect(
    op,
    backTo(request),
    actionToast(r, t("operator:copy_done_stop", { id: v.id })),
  );
}
