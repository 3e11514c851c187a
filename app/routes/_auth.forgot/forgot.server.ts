/** Password reset page's server side: the code step's state, the send-code and forgot forms. */
import { CODE_PURPOSE } from "@contract/enums";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { forgetPassword } from "~/upstream/account.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import {
  codeFormDone,
  codeFormRefused,
  codeFormState,
  sendCodeAction,
  sendCodeSchemaFor,
} from "~/utils/code-flow.server";
import { getZodConstraint } from "@conform-to/zod";
import { forgotSchema } from "~/schemas/forgot";

const HIDE = ["new_password", "secondary_password"];

/** The form's constraint attributes, the same on every request: read from its schema once. */
const CONSTRAINT = getZodConstraint(forgotSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const state = await codeFormState(caller, new URL(request.url));
  // The form's constraint attributes: zod is not in the page's first JavaScript (decision 0043).
  return { ...state, constraint: CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const caller = await callerFor(request);
  const form = await readForm(
    request,
    { reset: forgotSchema, send_code: await sendCodeSchemaFor(caller) },
    { hideFields: HIDE, defaultIntent: "reset" },
  );
  if (!form.ok) return refused(form, { cooldown: null, notice: null });
  if (form.intent === "send_code")
    return sendCodeAction(caller, form.value, form.reply, CODE_PURPOSE.RESET);

  const v = form.value;
  const r = await forgetPassword(caller, {
    type: v.type,
    account: v.account,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    new_password: v.new_password,
    secondary_password: v.secondary_password,
    auth_code: v.auth_code,
  });
  if (!r.ok) return codeFormRefused(form.reply({ formErrors: [r.msg] }), refusalStatus(r));
  return codeFormDone(caller, v.type, r.msg);
}
