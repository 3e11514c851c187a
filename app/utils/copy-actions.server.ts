/**
 * The commands of a copy, shared by /mine/copies and a copy's page: pause, resume, stop, funds and
 * closing one copied position. Each answers a redirect back with a toast, or a refusal (400 with
 * the upstream's translated message) that the page shows beside the copy it concerns.
 */
import { data } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { copyClosePosition, copyCommand, copyFunds } from "~/upstream/follow.server";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { copyCloseSchema, copyCommandSchema, copyFundsSchema } from "~/schemas/copy";

const DONE = {
  pause: "copy:copies.paused_done",
  resume: "copy:copies.resumed_done",
  stop: "copy:copies.stopped_done",
  funds: "copy:copies.funds_done",
  close: "copy:copies.closed_done",
} as const;

/** Runs the posted command and redirects to `back`. */
export async function copyAction(request: Request, back: string) {
  await requireSignedIn(request);
  const form = await readForm(request, {
    pause: copyCommandSchema("pause"),
    resume: copyCommandSchema("resume"),
    stop: copyCommandSchema("stop"),
    funds: copyFundsSchema,
    close: copyCloseSchema,
  });
  const postedId = Number(form.formData.get("id")) || null;
  if (!form.ok) return refused(form, { copyId: postedId });
  const caller = await callerFor(request);
  const key = form.idempotencyKey ?? undefined;
  const r =
    form.intent === "funds"
      ? await copyFunds(
          caller,
          form.value.id,
          { direction: form.value.direction, amount: form.value.amount },
          key,
        )
      : form.intent === "close"
        ? await copyClosePosition(caller, form.value.id, form.value.position_id, key)
        : await copyCommand(caller, form.intent, form.value.id, key);
  if (!r.ok)
    return data(
      {
        copyId: postedId,
        refusedIntent: form.intent,
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  const t = await getT(caller.lang, ["copy"]);
  return redirectWithToast(request, back, { type: "success", text: t(DONE[form.intent]) });
}
