/**
 * Sign out (POST only): revokes the upstream token, clears the session and goes home. A refused
 * form (no valid CSRF token, another intent) answers its status (403, 400, 413) with the refusal:
 * this resource route renders no page, and a plain object returned here would go out as 200.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/utils/forms.server";
import { signOut } from "~/utils/session-user.server";
import { logoutSchema } from "~/schemas/logout";

export async function loader() {
  return redirect("/mine/system");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, logoutSchema);
  if (!form.ok)
    return Response.json(
      { refusedIntent: form.intent, result: form.result },
      { status: form.status, headers: { "Cache-Control": "no-store" } },
    );
  return signOut(request);
}
