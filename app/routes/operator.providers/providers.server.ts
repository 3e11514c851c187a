/**
 * The providers list's server side: every provider with its copiers; hide one from copiers or show
 * it again, each with a remark (audited by the upstream; existing copies go on).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { adminProviders, hideProvider } from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo } from "~/utils/console";
import { hideProviderSchema, showProviderSchema } from "~/schemas/operator";
import { detectLang, getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const r = await adminProviders({ request, op });
  return data(
    {
      lang: await detectLang(request),
      items: r.ok ? r.data : [],
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, { hide: hideProviderSchema, show: showProviderSchema });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r = await hideProvider({ request, op }, v.id, v.intent === "hide", v.remark);
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
    actionToast(r, t(`operator:provider_done_${v.intent}`, { id: v.id })),
  );
}
