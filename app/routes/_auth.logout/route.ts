/** Sign out (POST only): revokes the upstream token, clears the session and goes home. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readForm, refused } from "~/utils/forms.server";
import { signOut } from "~/utils/session-user.server";
import { logoutSchema } from "~/schemas/logout";

export async function loader() {
  return redirect("/mine/system");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, logoutSchema);
  if (!form.ok) return refused(form);
  return signOut(request);
}
