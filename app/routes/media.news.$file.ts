/** News pictures: GET /media/news/x.svg is the upstream's NEWS_IMAGE_PATH + x.svg. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { NEWS_IMAGE_PATH } from "@contract/api/content-rules";
import { proxyUpstreamPicture } from "~/utils/media.server";

export function loader({ params }: LoaderFunctionArgs) {
  return proxyUpstreamPicture(NEWS_IMAGE_PATH, params.file ?? "");
}
