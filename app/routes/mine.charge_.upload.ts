/**
 * The deposit form posted by XMLHttpRequest (for the upload's progress bar): the same flow as the
 * page's action (`submitCharge`), answered as JSON: `{ location }` with the toast's cookie once the
 * deposit is declared (the page then goes there), or the refusal the form shows, with its status.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { getSession, commitSession } from "~/utils/session.server";
import { flashToast } from "~/utils/toast.server";
import { submitCharge } from "./mine.charge/charge.server";

export async function action({ request }: ActionFunctionArgs) {
  const out = await submitCharge(request);
  if (!out.ok) return Response.json(out.payload, { status: out.status });
  const session = await getSession(request);
  flashToast(session, { type: "success", text: out.message });
  return Response.json(
    { location: out.location },
    { headers: { "Set-Cookie": await commitSession(session) } },
  );
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
