/** Password change's server side: the code step to the account's own address and the change. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { amendPassword } from "~/upstream/account.server";
import { sendOwnCode } from "~/upstream/profile.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { codeFormRefused } from "~/utils/code-flow.server";
import { accountState, codeSentAnswer, cooldownFor } from "~/utils/account.server";
import { ownCodeSchema, passwordChangeSchema } from "~/schemas/account";

const HIDE = ["new_password", "re_password"];

/** The account's address the code goes to: its e-mail, else its mobile. */
function ownAddress(u: { email: string | null; mobile: string | null }) {
  return u.email
    ? { channel: "email" as const, address: u.email }
    : { channel: "mobile" as const, address: u.mobile ?? "" };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user, notice } = await accountState(request);
  const own = ownAddress(user);
  return {
    notice,
    address: own.address,
    channel: own.channel,
    cooldown: notice ? 0 : cooldownFor(caller, own.address),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { caller, user } = await accountState(request);
  const form = await readForm(
    request,
    { change: passwordChangeSchema, send_code: ownCodeSchema },
    { hideFields: HIDE, defaultIntent: "change" },
  );
  if (!form.ok) return refused(form, { cooldown: null, notice: null });
  const own = ownAddress(user);
  if (form.intent === "send_code")
    return codeSentAnswer(caller, own.address, await sendOwnCode(caller, own.channel), form.reply);

  const v = form.value;
  const r = await amendPassword(caller, {
    new_password: v.new_password,
    re_password: v.re_password,
    auth_code: v.auth_code,
    type: own.channel,
  });
  if (!r.ok) return codeFormRefused(form.reply({ formErrors: [r.msg] }), refusalStatus(r));
  caller.session.unset("codeSent");
  // This session stays signed in (the upstream keeps the token that changed the password).
  throw await redirectWithToast(caller.session, "/mine", { type: "success", text: r.msg });
}
