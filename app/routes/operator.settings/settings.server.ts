/** The settings' server side: every setting operators may change; one saved at a time. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { setSetting, settings } from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { settingSchema } from "~/schemas/operator";
import { getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const r = await settings({ request, op });
  return data(
    { settings: r.ok ? r.data : [], notice: r.ok ? null : r.msg },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, settingSchema);
  const key = String(form.formData.get("key") ?? "");
  if (!form.ok) return refused(form, { refusedKey: key });
  const r = await setSetting({ request, op }, form.value.key, form.value.value);
  if (!r.ok)
    return data(
      {
        refusedIntent: form.intent,
        refusedKey: key,
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["operator"]);
  return operatorRedirect(
    op,
    "/operator/settings",
    actionToast(r, t("operator:setting_saved", { key: form.value.key })),
  );
}
