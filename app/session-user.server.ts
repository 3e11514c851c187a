/** Signing in: storing the upstream token and a summary of the user in the session. */
import type { AppSession, SessionUser } from "./session.server";
import type { UpstreamUser } from "./upstream/account.server";

export function summariseUser(u: UpstreamUser): SessionUser {
  return {
    id: Number(u.id),
    uid: String(u.uid ?? ""),
    email: u.email ?? null,
    mobile: u.mobile ?? null,
    is_demo: Number(u.is_demo ?? 0),
    invite_code: u.invite_code ?? null,
  };
}

export function signIn(session: AppSession, token: string, user: UpstreamUser): void {
  session.set("token", token);
  session.set("user", summariseUser(user));
  session.unset("codeSent");
}
