/**
 * A news article (/news/detail?id=, public): title, category, date in the user's locale, picture
 * and the article's HTML, sanitised by the upstream when stored and by this web's loader again.
 */
import type { LinksFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { formatDateTime } from "~/utils/format";
import contentStyles from "~/styles/content.css";
import type { loader } from "./detail.server";

export { loader } from "./detail.server";

export const handle = { i18n: ["common", "content"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export default function NewsDetail() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("content");
  const a = d.article;
  return (
    <div className="news-detail">
      <PageHeader title={t("news_title")} back="/news" />
      {!a ? (
        <p className="card notice" role="status" data-testid="news-notice">
          {d.notice} <Link to="/news">{t("news_back")}</Link>
        </p>
      ) : (
        <article
          className="card article"
          data-testid="news-article"
          aria-labelledby="article-title"
        >
          <p className="muted article-meta">
            <Link to={`/news?category_id=${a.category_id}`}>{a.category_name}</Link>
            {" · "}
            <time dateTime={a.created_at.replace(" ", "T") + "Z"}>
              {formatDateTime(a.created_at, d.lang)}
            </time>
          </p>
          <h2 id="article-title" className="article-title">
            {a.title}
          </h2>
          {a.picture ? (
            <img src={a.picture} alt="" width={320} height={180} className="article-picture" />
          ) : null}
          {/* Sanitised with the contract's allow-list by the upstream and again by the loader. */}
          <div
            className="article-body"
            data-testid="article-body"
            dangerouslySetInnerHTML={{ __html: a.html }}
          />
        </article>
      )}
    </div>
  );
}
