/**
 * The copy form's server side (login required): the provider and the user's free margin
 * (forexDetail); the POST starts the copy with the form's idempotency key and goes to the new
 * copy's page, or answers the refusal (400) for the form to show in place.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { copyStart, followProvider } from "~/upstream/follow.server";
import { forexDetail } from "~/upstream/trading.server";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { newIdempotencyKey, readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { copyHref } from "~/utils/copy-href";
import { copyFormSchema } from "~/schemas/copy";
import { idOf } from "../rank_.provider/provider.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const id = idOf(request);
  const headers = { "Cache-Control": "private, no-store" };
  const [p, detail] = await Promise.all([
    id === null ? null : followProvider(caller, id),
    forexDetail(caller),
  ]);
  const missing = !p || (!p.ok && p.code === CODE.NOT_FOUND);
  // A provider that stopped is not found, as one an operator hid.
  const notice = missing ? t("copy:provider.not_found") : !p.ok ? p.msg : null;
  if (!p || !p.ok || notice !== null)
    return data(
      {
        lang: caller.lang,
        title: t("copy:provider.not_found_title"),
        provider: null,
        freeMargin: null as number | null,
        key: "",
        notice: notice ?? "",
      },
      { status: missing ? 404 : 200, headers },
    );
  return data(
    {
      lang: caller.lang,
      title: t("copy:form.title", { name: p.data.name }),
      provider: p.data,
      freeMargin: detail.ok ? Number(detail.data.can_use) : null,
      key: newIdempotencyKey(),
      notice: null as string | null,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, copyFormSchema);
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const v = form.value;
  const r = await copyStart(
    caller,
    {
      provider_id: v.provider_id,
      amount: v.amount,
      mode: v.mode,
      multiple: v.multiple || undefined,
      stop_loss_pct: v.stop_loss_pct,
      copy_open: v.copy_open,
    },
    form.idempotencyKey ?? undefined,
  );
  if (!r.ok)
    return data(
      { refusedIntent: "form", result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(request, copyHref(r.data.id), {
    type: "success",
    text: t("copy:copies.started", { name: r.data.provider_name }),
  });
}
