/** The e-mail screen's server side: the account's e-mail, or binding one with a code sent to it. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bindEmail, sendBindEmailCode } from "~/upstream/profile.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { codeFormRefused } from "~/utils/code-flow.server";
import { accountState, codeSentAnswer, cooldownFor } from "~/utils/account.server";
import { bindEmailCodeSchema, bindEmailSchema } from "~/schemas/account";

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user, notice } = await accountState(request);
  const sent = caller.session.get("codeSent");
  // The countdown of the address a code was last sent to from this page, when it is not bound yet.
  const pending = !user.email && sent?.to.includes("@") ? sent.to : "";
  return {
    notice,
    email: user.email,
    pending,
    cooldown: pending ? cooldownFor(caller, pending) : 0,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { caller } = await accountState(request);
  const form = await readForm(
    request,
    { bind: bindEmailSchema, send_code: bindEmailCodeSchema },
    { defaultIntent: "bind" },
  );
  if (!form.ok) return refused(form, { cooldown: null, notice: null });
  if (form.intent === "send_code") {
    const email = form.value.email;
    return codeSentAnswer(caller, email, await sendBindEmailCode(caller, email), form.reply);
  }
  const r = await bindEmail(caller, form.value);
  if (!r.ok) return codeFormRefused(form.reply({ formErrors: [r.msg] }), refusalStatus(r));
  caller.session.unset("codeSent");
  const user = caller.session.get("user");
  if (user) caller.session.set("user", { ...user, email: form.value.email });
  throw await redirectWithToast(caller.session, "/mine/email", { type: "success", text: r.msg });
}
