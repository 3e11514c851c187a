/**
 * GET /media/sparklines.svg?v=VERSION: every instrument's sparkline as one SVG sprite
 * (app/utils/sparklines.server.ts). The current version is kept by browsers for a year; any other
 * version answers the current drawing without being kept.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { abbreviatedCacheKline } from "~/upstream/market.server";
import { spriteOf } from "~/utils/sparklines.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const sparks = await abbreviatedCacheKline(await callerFor(request));
  if (!sparks.ok)
    return new Response("Unavailable", { status: 503, headers: { "Cache-Control": "no-store" } });
  const sprite = spriteOf(sparks.data);
  const asked = new URL(request.url).searchParams.get("v");
  return new Response(sprite.svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control":
        asked === sprite.version ? "public, max-age=31536000, immutable" : "no-cache",
    },
  });
}
