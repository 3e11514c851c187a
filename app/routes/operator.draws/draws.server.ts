/** The withdrawal queue's server side: one status tab, paged; approve or reject with a remark. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { approveDraw, draws, rejectDraw } from "~/upstream/operator.server";
import { requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, DRAW_TABS } from "~/utils/console";
import { loadQueue } from "~/utils/console-queue.server";
import { approveDrawSchema, rejectDrawSchema } from "~/schemas/operator";
import { getT } from "~/i18n.server";

export function loader({ request }: LoaderFunctionArgs) {
  return loadQueue(request, DRAW_TABS, draws, (w) => w);
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, { approve: approveDrawSchema, reject: rejectDrawSchema });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r =
    v.intent === "approve"
      ? await approveDraw({ request, op }, v.id, v.remark)
      : await rejectDraw({ request, op }, v.id, v.remark);
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
    text: t(`operator:draw_done_${v.intent}`, { id: v.id }),
  });
}
