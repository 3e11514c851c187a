/**
 * POST /policy-notice: the visitor dismissed the policy notice. When it was published is remembered
 * in a cookie (a later policy notice shows again), then the visitor goes back to the page they were on
 * (see policySeenCookie). A plain form: it works without JavaScript; with it, the banner's fetcher posts the same form.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { dismissPolicySchema } from "~/schemas/content";
import { policySeenCookie } from "~/utils/content.server";
import { readForm, refused } from "~/utils/forms.server";
import { safeRedirectPath } from "~/utils/session.server";

export function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, dismissPolicySchema);
  if (!form.ok) return refused(form);
  return redirect(safeRedirectPath(form.value.redirectTo, "/"), {
    headers: { "Set-Cookie": await policySeenCookie.serialize(form.value.version) },
  });
}
