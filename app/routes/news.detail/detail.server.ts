/**
 * A news article's server side: news/info {id}; its HTML sanitised again here before it is
 * rendered. An unknown or unpublished id answers 404 with the upstream's message.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { CODE } from "@contract/envelope";
import { callerFor } from "~/upstream/client.server";
import { newsInfo } from "~/upstream/content.server";
import { idParam, newsPictureSrc, sanitizeContent } from "~/utils/content.server";
import { getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const id = idParam(request);
  const headers = { "Cache-Control": "private, max-age=30" };
  if (id === null) {
    const t = await getT(request, ["content"]);
    return data(
      { lang: caller.lang, article: null, notice: t("content:news_missing") },
      { status: 404, headers },
    );
  }
  const r = await newsInfo(caller, id);
  if (!r.ok)
    return data(
      { lang: caller.lang, article: null, notice: r.msg },
      { status: r.code === CODE.NOT_FOUND ? 404 : 200, headers },
    );
  const { content, ...rest } = r.data;
  return data(
    {
      lang: caller.lang,
      article: { ...rest, picture: newsPictureSrc(rest.logo), html: sanitizeContent(content) },
      notice: null as string | null,
    },
    { headers },
  );
}
