/** The four-eyes requests' server side: one status tab (pending first), paged; approve or reject. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { decideRequest, operatorRequests } from "~/upstream/operator.server";
import { requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, REQUEST_TABS } from "~/utils/console";
import { loadQueue } from "~/utils/console-queue.server";
import { approveRequestSchema, rejectRequestSchema } from "~/schemas/operator";
import { getT } from "~/i18n.server";

export function loader({ request }: LoaderFunctionArgs) {
  // Who is looking: their own requests are shown without decision forms.
  return loadQueue(
    request,
    REQUEST_TABS,
    operatorRequests,
    (r) => r,
    (op) => ({ me: op.name }),
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, {
    approve: approveRequestSchema,
    reject: rejectRequestSchema,
  });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r = await decideRequest({ request, op }, v.intent, v.id, v.remark);
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
  return operatorRedirect(op, backTo(request), {
    type: "success",
    text: t(`operator:request_done_${v.intent}`, { id: v.id }),
  });
}
