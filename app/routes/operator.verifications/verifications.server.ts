/** The verification queue's server side: one status tab (waiting first), paged; approve or reject. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { approveRealName, realNames, rejectRealName } from "~/upstream/verify.server";
import { requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo } from "~/utils/console";
import { VERIFY_TABS } from "~/utils/verify";
import { loadQueue } from "~/utils/console-queue.server";
import { approveRealNameSchema, rejectRealNameSchema } from "~/schemas/verify";
import { getT } from "~/i18n.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadQueue(request, VERIFY_TABS, realNames, (r) => ({
    ...r,
    // The console's own image proxy (/operator/uploads/NAME) serves them to a signed-in operator.
    front: `/operator/uploads/${encodeURIComponent(r.front_pic)}`,
    back: `/operator/uploads/${encodeURIComponent(r.reverse_pic)}`,
  }));
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, {
    approve: approveRealNameSchema,
    reject: rejectRealNameSchema,
  });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r =
    v.intent === "approve"
      ? await approveRealName({ request, op }, v.id)
      : await rejectRealName({ request, op }, v.id, v.remark);
  if (!r.ok)
    return data(
      {
        refusedIntent: form.intent,
        refusedId: v.id,
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["verify"]);
  return operatorRedirect(op, backTo(request), {
    type: "success",
    text: t(`verify:done_${v.intent}`, { id: v.id }),
  });
}
