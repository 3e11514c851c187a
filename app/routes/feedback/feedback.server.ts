/** Feedback's server side: the message goes to POST /api/feedback/submit (with the user's token when signed in). */
import { data, type ActionFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { submitFeedback } from "~/upstream/company.server";
import { feedbackSchema } from "~/schemas/company";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";

export function loader() {
  return data({}, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, feedbackSchema);
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const r = await submitFeedback(caller, {
    message: form.value.message,
    contact: form.value.contact || undefined,
  });
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(request, "/feedback", { type: "success", text: r.msg });
}
