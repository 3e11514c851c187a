/**
 * Instrument logos: GET /media/logos/EURUSD.svg is fetched from the upstream's /static/logos/ and
 * passed on with a long cache, so that the browser never needs the upstream's address.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { upstreamUrl } from "~/utils/env.server";

const FILE_RE = /^[A-Za-z0-9._-]{1,80}\.(svg|png|jpe?g|webp|gif)$/i;
const TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

export async function loader({ params }: LoaderFunctionArgs) {
  const file = params.file ?? "";
  if (!FILE_RE.test(file) || file.includes("..")) return new Response("Not found", { status: 404 });
  let res: Response;
  try {
    res = await fetch(`${upstreamUrl()}/static/logos/${encodeURIComponent(file)}`, {
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return new Response("Bad gateway", { status: 502, headers: { "Cache-Control": "no-store" } });
  }
  if (!res.ok || !res.body)
    return new Response("Not found", {
      status: 404,
      headers: { "Cache-Control": "public, max-age=60" },
    });
  const ext = file.split(".").pop()!.toLowerCase();
  const headers = new Headers({
    "Content-Type": TYPES[ext] ?? "application/octet-stream",
    "Cache-Control": "public, max-age=604800, stale-while-revalidate=86400",
  });
  // SVG logos must not run scripts even when opened directly.
  if (ext === "svg")
    headers.set(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
  const etag = res.headers.get("etag");
  if (etag) headers.set("ETag", etag);
  return new Response(res.body, { status: 200, headers });
}
