/** Flash toasts: set before a redirect, shown once by the root layout. */
import { redirect } from "@remix-run/node";
import { commitSession, getSession, type AppSession, type Toast } from "~/utils/session.server";

export function flashToast(session: AppSession, toast: Toast): void {
  session.flash("toast", toast);
}

/** Redirect with a toast shown on the next page. */
export async function redirectWithToast(
  request: Request | AppSession,
  to: string,
  toast: Toast,
  init: { headers?: Record<string, string> } = {},
): Promise<Response> {
  const session = request instanceof Request ? await getSession(request) : request;
  session.flash("toast", toast);
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await commitSession(session));
  return redirect(to, { headers });
}
