/** Sign out (POST only): revokes the upstream token, clears the session and goes home. */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { callerFor } from "~/upstream/client.server";
import { logout } from "~/upstream/account.server";
import { commitSession, getSession } from "~/session.server";
import { readForm } from "~/forms.server";
import { redirectWithToast } from "~/toast.server";
import { logoutSchema } from "~/schemas/logout";

export async function loader() {
  return redirect("/mine/system");
}

export async function action({ request }: ActionFunctionArgs) {
  const { formData, csrfError } = await readForm(request);
  if (csrfError) return redirectWithToast(request, "/mine/system", { type: "error", text: csrfError });
  const submission = parseWithZod(formData, { schema: logoutSchema });
  if (submission.status !== "success") return redirect("/mine/system");
  const caller = await callerFor(request);
  const r = caller.token ? await logout(caller) : null;
  // A fresh session (no token, no user) that carries the goodbye toast.
  const fresh = await getSession(new Request("http://x/"));
  if (r?.ok && r.msg) fresh.flash("toast", { type: "success", text: r.msg });
  // Committing the fresh session replaces the old cookie: token and user are gone.
  return redirect("/", { headers: { "Set-Cookie": await commitSession(fresh) } });
}
