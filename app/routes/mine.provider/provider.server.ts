/**
 * The user's provider settings (login required): GET /api/follow/provider/mine; the POSTs become a
 * provider or change the settings, and stop being one. Refusals (400) show in the form.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { providerMine, providerSave, providerStop } from "~/upstream/follow.server";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { providerSaveSchema, providerStopSchema } from "~/schemas/copy";

const HERE = "/mine/provider";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const r = await providerMine(caller);
  return data(
    {
      lang: caller.lang,
      title: t("copy:mine.title"),
      settings: r.ok ? r.data : null,
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, { save: providerSaveSchema, stop: providerStopSchema });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const r =
    form.intent === "save"
      ? await providerSave(caller, {
          name: form.value.name,
          description: form.value.description ?? "",
          min_investment: form.value.min_investment,
        })
      : await providerStop(caller);
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(request, HERE, {
    type: "success",
    text: t(form.intent === "save" ? "copy:mine.saved" : "copy:mine.stopped"),
  });
}
