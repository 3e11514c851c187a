/**
 * Pictures of the upstream served by the web under /media/: the browser never needs the upstream's
 * address. Only plain file names of picture types pass; SVGs get a CSP that forbids scripts even
 * when opened directly.
 */
import { upstreamPool } from "~/utils/env.server";

const FILE_RE = /^[A-Za-z0-9._-]{1,80}\.(svg|png|jpe?g|webp|gif)$/i;
const TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
};

/** The upstream file `dir` + `file` (dir like "/static/logos/"), passed on with a long cache. */
export async function proxyUpstreamPicture(dir: string, file: string): Promise<Response> {
  if (!FILE_RE.test(file) || file.includes("..")) return new Response("Not found", { status: 404 });
  let res: Response;
  try {
    res = await upstreamPool().fetch(
      (base) => `${base}${dir}${encodeURIComponent(file)}`,
      {},
      { replayable: true, timeoutMs: 10_000 },
    );
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
  // SVG pictures must not run scripts even when opened directly.
  if (ext === "svg")
    headers.set(
      "Content-Security-Policy",
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
  const etag = res.headers.get("etag");
  if (etag) headers.set("ETag", etag);
  return new Response(res.body, { status: 200, headers });
}
