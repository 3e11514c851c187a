/**
 * A deposit's proof image for the console (GET /operator/uploads/NAME): fetched from the upstream's
 * GET /admin/api/uploads/NAME with the operator's token, for a signed-in operator only, never cached
 * by anyone but the operator's browser.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOperator } from "~/utils/operator-session.server";
import { uploadImage } from "~/upstream/operator.server";

const NAME_RE = /^[A-Za-z0-9._-]{1,128}$/;

const plain = (status: number) =>
  new Response(null, { status, headers: { "Cache-Control": "private, no-store" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const op = await getOperator(request);
  if (!op) return plain(401);
  const name = params.name ?? "";
  if (!NAME_RE.test(name)) return plain(404);
  const img = await uploadImage(op, name);
  if (!img.body || !img.type) return plain(img.status);
  return new Response(img.body, {
    status: 200,
    headers: {
      "Content-Type": img.type,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}
