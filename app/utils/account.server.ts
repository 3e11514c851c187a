/**
 * Shared by the account screens (/mine/password, /mine/email, /mine/invite): the signed-in user read
 * fresh from the upstream, the demo notice (real accounts only, product-spec.md section 6), and the
 * answer of a send-code step (the countdown the server computes, remembered in the session).
 */
import { IS_DEMO } from "@contract/enums";
import type { CodeSent } from "@contract/api/identity";
import { data } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { callerFor, type Caller, type UpstreamResult } from "~/upstream/client.server";
import { userInfo } from "~/upstream/account.server";
import { getT } from "~/i18n.server";
import { CODE_RESEND_SECONDS, cooldownLeft, refusalStatus } from "~/utils/forms.server";
import { commitSession, requireSignedIn, type SessionUser } from "~/utils/session.server";

interface AccountState {
  caller: Caller;
  /** The upstream's user record (the session's summary when the upstream refused). */
  user: Pick<SessionUser, "email" | "mobile" | "is_demo" | "invite_code">;
  /** The message shown instead of the screen's forms (demo account), or null. */
  notice: string | null;
}

export async function accountState(request: Request): Promise<AccountState> {
  const { user: summary } = await requireSignedIn(request);
  const caller = await callerFor(request);
  const info = await userInfo(caller);
  const user = info.ok ? info.data : summary;
  if (Number(user.is_demo) === IS_DEMO.DEMO) {
    const t = await getT(request, ["account"]);
    return { caller, user, notice: t("account:real_only") };
  }
  return { caller, user, notice: info.ok ? null : info.msg };
}

/** Seconds left before another code may be sent to `to` from this browser. */
export function cooldownFor(caller: Caller, to: string): number {
  const sent = caller.session.get("codeSent");
  return sent && sent.to === to ? cooldownLeft(sent.at) : 0;
}

/** The answer of a send-code step: the refusal (400 or 429), or the countdown and the notice. */
export async function codeSentAnswer(
  caller: Caller,
  to: string,
  r: UpstreamResult<CodeSent>,
  reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]>,
) {
  if (!r.ok)
    return data(
      { result: reply({ formErrors: [r.msg] }), cooldown: 0, notice: null as string | null },
      { status: refusalStatus(r) },
    );
  const seconds = Number(r.data?.resend_in) > 0 ? Number(r.data.resend_in) : CODE_RESEND_SECONDS;
  caller.session.set("codeSent", {
    to,
    at: Date.now() - (CODE_RESEND_SECONDS - seconds) * 1000,
  });
  return data(
    { result: reply(), cooldown: seconds, notice: r.msg as string | null },
    { headers: { "Set-Cookie": await commitSession(caller.session) } },
  );
}
