/**
 * The deposit queue's server side: one status tab, paged; approve, reject or invalid. Also whether
 * users have any way to deposit yet (the console's first step).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  approveCharge,
  chargeChannels,
  charges,
  decideCharge,
  wireAccounts,
} from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, CHARGE_TABS, uploadName } from "~/utils/console";
import { loadQueue } from "~/utils/console-queue.server";
import { approveChargeSchema, invalidChargeSchema, rejectChargeSchema } from "~/schemas/operator";
import { getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  // A fresh install shows users no way to deposit (its seeded channels are placeholders, hidden
  // until the broker's own are entered): the console's home says so first.
  const [channels, wires] = await Promise.all([
    chargeChannels({ request, op }),
    wireAccounts({ request, op }),
  ]);
  const noDepositChannel =
    channels.ok &&
    wires.ok &&
    !channels.data.some((c) => c.enabled) &&
    !wires.data.some((w) => w.enabled);
  return loadQueue(
    request,
    CHARGE_TABS,
    charges,
    (c) => ({ ...c, proof: `/operator/uploads/${uploadName(c.proof_url)}` }),
    () => ({ noDepositChannel }),
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, {
    approve: approveChargeSchema,
    reject: rejectChargeSchema,
    invalid: invalidChargeSchema,
  });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r =
    v.intent === "approve"
      ? await approveCharge({ request, op }, v.id, v.amount, v.remark)
      : await decideCharge({ request, op }, v.intent, v.id, v.remark);
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
    actionToast(r, t(`operator:charge_done_${v.intent}`, { id: v.id })),
  );
}
