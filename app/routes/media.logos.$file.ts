/** Instrument logos: GET /media/logos/EURUSD.svg is the upstream's /static/logos/EURUSD.svg. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { proxyUpstreamPicture } from "~/utils/media.server";

export function loader({ params }: LoaderFunctionArgs) {
  return proxyUpstreamPicture("/static/logos/", params.file ?? "");
}
