/**
 * The operator console's own session (issue 8): a second signed, HTTP-only cookie, separate from the
 * user's, holding the operator's token and name. SameSite strict (the console is never entered from
 * another site), Secure and __Host- prefixed like the user's, signed with the same SESSION_SECRET;
 * it expires with the token (12 h, the upstream's). A user's session never opens the console.
 */
import { createCookieSessionStorage, redirect, type Session } from "@remix-run/node";
import type { Toast } from "~/utils/session.server";
import { env, sessionSecrets } from "~/utils/env.server";
import { isOperatorRole, type OperatorRole } from "@contract/operators";
import { isPendingApproval } from "@contract/api/admin";

interface OperatorSessionData {
  token: string;
  name: string;
  /** The operator's role when they signed in; a new role ends the token, so it stays current. */
  role: OperatorRole;
  /** ms since the epoch: when the upstream stops accepting the token. */
  expiresAt: number;
}

interface OperatorFlashData {
  toast: Toast;
}

type OperatorSession = Session<OperatorSessionData, OperatorFlashData>;

/** Where the console's sign-in page is. */
export const OPERATOR_LOGIN = "/operator/login";

let storage: ReturnType<
  typeof createCookieSessionStorage<OperatorSessionData, OperatorFlashData>
> | null = null;

function operatorStorage() {
  if (!storage) {
    storage = createCookieSessionStorage<OperatorSessionData, OperatorFlashData>({
      cookie: {
        name: env().secureCookies ? "__Host-tp_operator" : "tp_operator",
        httpOnly: true,
        sameSite: "strict",
        secure: env().secureCookies,
        path: "/",
        secrets: sessionSecrets(),
      },
    });
  }
  return storage;
}

export function getOperatorSession(request: Request): Promise<OperatorSession> {
  return operatorStorage().getSession(request.headers.get("Cookie"));
}

/**
 * The Set-Cookie value of a console session; it ends when the operator's token does. Its lifetime
 * is sent as Max-Age (seconds from now), which the browser counts from when it got the cookie: an
 * absolute Expires, read against a device clock hours or days ahead of the server's, ended the
 * session at once.
 */
export function commitOperatorSession(session: OperatorSession): Promise<string> {
  const at = session.get("expiresAt") ?? Date.now() + 3600_000;
  return operatorStorage().commitSession(session, {
    maxAge: Math.max(0, Math.ceil((at - Date.now()) / 1000)),
  });
}

export interface SignedInOperator {
  session: OperatorSession;
  token: string;
  name: string;
  role: OperatorRole;
}

export async function getOperator(request: Request): Promise<SignedInOperator | null> {
  const session = await getOperatorSession(request);
  const token = session.get("token");
  const name = session.get("name");
  const role = session.get("role");
  const at = session.get("expiresAt");
  // A session from before roles has none: signing in again gives it one.
  if (!token || !name || !isOperatorRole(role) || (at && at <= Date.now())) return null;
  return { session, token, name, role };
}

/** For console pages: the signed-in operator, or a redirect to the console's sign-in. */
export async function requireOperator(request: Request): Promise<SignedInOperator> {
  const op = await getOperator(request);
  if (!op) throw redirect(OPERATOR_LOGIN);
  return op;
}

/** Ends the console session (an expired or revoked token) and goes to the sign-in page. */
export async function operatorSignedOut(request: Request, toast?: Toast): Promise<Response> {
  const session = await getOperatorSession(request);
  session.unset("token");
  session.unset("name");
  session.unset("role");
  session.unset("expiresAt");
  if (toast) session.flash("toast", toast);
  return redirect(OPERATOR_LOGIN, {
    headers: { "Set-Cookie": await commitOperatorSession(session) },
  });
}

/**
 * The toast of a console action the upstream accepted: `done` when it took effect, or the
 * upstream's translated "sent to a second operator" when it was filed for four-eyes approval.
 */
export function actionToast(r: { msg: string; data: unknown }, done: string): Toast {
  return isPendingApproval(r.data)
    ? { type: "info", text: r.msg }
    : { type: "success", text: done };
}

/** Redirect within the console with a toast shown on the next page. */
export async function operatorRedirect(
  op: SignedInOperator,
  to: string,
  toast: Toast,
): Promise<Response> {
  op.session.flash("toast", toast);
  return redirect(to, { headers: { "Set-Cookie": await commitOperatorSession(op.session) } });
}
