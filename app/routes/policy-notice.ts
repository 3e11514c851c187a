/**
 * POST /policy-notice: the visitor dismissed the policy notice. When it was published is remembered
 * in a cookie (a later policy notice shows again), then the visitor goes back to the page they were on
 * (see policySeenCookie). A plain form: it works without JavaScript; with it, the banner's fetcher posts the same form.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { dismissPolicySchema } from "~/schemas/content";
import { policySeenCookie } from "~/utils/content.server";
import { readForm } from "~/utils/forms.server";
import { getT } from "~/i18n.server";
import { safeRedirectPath } from "~/utils/session.server";

export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, dismissPolicySchema);
  if (!form.ok) {
    // A resource route: the refusal's status (403 for CSRF, 400) with its translated message.
    const t = await getT(request, ["common", "content"]);
    const messages = Object.values(form.result.error ?? {})
      .flat()
      .map((m) => t(String(m)));
    return new Response(`${messages.join("\n")}\n`, {
      status: form.status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  return redirect(safeRedirectPath(form.value.redirectTo, "/"), {
    headers: { "Set-Cookie": await policySeenCookie.serialize(form.value.version) },
  });
}
