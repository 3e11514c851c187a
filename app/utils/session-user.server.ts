/** Signing in (storing the upstream token and a summary of the user in the session) and out. */
import { redirect } from "@remix-run/node";
import {
  commitSession,
  getSession,
  type AppSession,
  type SessionUser,
} from "~/utils/session.server";
import { callerFor } from "~/upstream/client.server";
import { logout, type UpstreamUser } from "~/upstream/account.server";
import { queueRevocation } from "~/utils/revocations.server";

function summariseUser(u: UpstreamUser): SessionUser {
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

/**
 * Signing out: revokes the upstream token and answers a redirect home whose fresh session (no
 * token, no user) replaces the old cookie and carries the goodbye toast. When the upstream cannot
 * be reached, the web session still ends and the token's revocation is retried until it can.
 */
export async function signOut(request: Request): Promise<Response> {
  const caller = await callerFor(request);
  const r = caller.token ? await logout(caller) : null;
  if (caller.token && r && !r.ok && r.network) await queueRevocation(caller.token);
  const fresh = await getSession(new Request("http://x/"));
  if (r?.ok && r.msg) fresh.flash("toast", { type: "success", text: r.msg });
  return redirect("/", { headers: { "Set-Cookie": await commitSession(fresh) } });
}
