/** Sign-up page's server side: the code step's state, the send-code and register forms. */
import { CODE_PURPOSE } from "@contract/enums";
import { getSignedIn } from "~/utils/session.server";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { register } from "~/upstream/account.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import {
  codeFormDone,
  codeFormRefused,
  codeFormState,
  sendCodeAction,
  sendCodeSchemaFor,
} from "~/utils/code-flow.server";
import { getZodConstraint } from "@conform-to/zod";
import { registerSchema } from "~/schemas/register";

const HIDE = ["password", "re_password"];

/** The form's constraint attributes, the same on every request: read from its schema once. */
const CONSTRAINT = getZodConstraint(registerSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const state = await codeFormState(caller, url);
  const invite = (url.searchParams.get("invite_code") ?? "").trim().slice(0, 32);
  // The form's constraint attributes: zod is not in the page's first JavaScript (decision 0043).
  return { ...state, invite, constraint: CONSTRAINT };
}

export async function action({ request }: ActionFunctionArgs) {
  const caller = await callerFor(request);
  const form = await readForm(
    request,
    { register: registerSchema, send_code: await sendCodeSchemaFor(caller) },
    { hideFields: HIDE, defaultIntent: "register" },
  );
  if (!form.ok) return refused(form, { cooldown: null, notice: null });
  if (form.intent === "send_code")
    return sendCodeAction(caller, form.value, form.reply, CODE_PURPOSE.REGISTER);

  const v = form.value;
  const r = await register(caller, {
    type: v.type,
    account: v.account,
    mobile: v.type === "mobile" ? v.account : undefined,
    area_id: v.type === "mobile" ? v.area_id : undefined,
    password: v.password,
    re_password: v.re_password,
    sms_code: v.sms_code,
    invite_code: v.invite_code || undefined,
  });
  if (!r.ok) return codeFormRefused(form.reply({ formErrors: [r.msg] }), refusalStatus(r));
  return codeFormDone(caller, v.type, r.msg);
}
