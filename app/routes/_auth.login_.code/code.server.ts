/**
 * The second step of a sign-in with two-factor on (/login/code): the app's code (or a backup code)
 * for the challenge the password step left in the session. Without a waiting challenge, or once it
 * has ended, the page says so and leads back to the password form.
 */
import { getZodConstraint } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { loginSecondFactor } from "~/upstream/security.server";
import { commitSession, getSignedIn, type AppSession } from "~/utils/session.server";
import { signIn } from "~/utils/session-user.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { deviceOf } from "~/utils/device.server";
import { getT } from "~/i18n.server";
import { secondFactorRestartSchema, secondFactorSchema } from "~/schemas/security";

/** The waiting challenge of this browser's sign-in, or null when there is none or it has ended. */
function pending(session: AppSession) {
  const p = session.get("secondFactor");
  return p && p.expiresAt > Date.now() ? p : null;
}

/** The form's constraint attributes, the same on every request: read from its schema once. */
const CONSTRAINT = getZodConstraint(secondFactorSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  const p = pending((await callerFor(request)).session);
  // No waiting sign-in (or it timed out): the page says so and leads back to the password.
  return {
    expiresInS: p ? Math.max(0, Math.round((p.expiresAt - Date.now()) / 1000)) : 0,
    // The form's constraint attributes: zod is not in the page's first JavaScript (decision 0043).
    constraint: CONSTRAINT,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(
    request,
    { code: secondFactorSchema, restart: secondFactorRestartSchema },
    { defaultIntent: "code" },
  );
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  if (form.intent === "restart") {
    caller.session.unset("secondFactor");
    throw redirect("/login", { headers: { "Set-Cookie": await commitSession(caller.session) } });
  }
  const p = pending(caller.session);
  if (!p) {
    const t = await getT(request, ["security"]);
    return data(
      {
        refusedIntent: "code",
        result: form.reply({ formErrors: [t("security:sign_in_timed_out")] }),
      },
      { status: 400 },
    );
  }
  const device = await deviceOf(request);
  const r = await loginSecondFactor(caller, {
    challenge: p.challenge,
    code: String(form.value.code),
    device: device.id,
  });
  if (!r.ok)
    return data(
      { refusedIntent: "code", result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  caller.session.unset("secondFactor");
  signIn(caller.session, r.data.token, r.data.user);
  throw await redirectWithToast(
    caller.session,
    p.from,
    { type: "success", text: r.msg },
    device.setCookie ? { headers: { "Set-Cookie": device.setCookie } } : undefined,
  );
}
