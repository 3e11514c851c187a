/**
 * News (/news, public; product-spec.md section 2): news/list of every category or of one
 * (?category_id=), newest first, paged by links; each item with its picture, title, summary and
 * date in the user's locale, leading to /news/detail?id=. Categories are links, the current one
 * marked.
 */
import type { LinksFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { Pager, readerPagerLabels } from "~/components/Pager";
import { formatDateTime } from "~/utils/format";
import contentStyles from "~/styles/content.css";
import type { loader } from "./news.server";

export { loader } from "./news.server";

export const handle = { i18n: ["common", "content"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

function listHref(categoryId: number | null, page = 1): string {
  const q = new URLSearchParams();
  if (categoryId !== null) q.set("category_id", String(categoryId));
  if (page > 1) q.set("page", String(page));
  const s = q.toString();
  return s ? `/news?${s}` : "/news";
}

export default function News() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("content");
  return (
    <div className="news">
      <PageHeader title={t("news_title")} back="/" />
      {d.categories.length ? (
        <nav className="chips" aria-label={t("categories")} data-testid="news-categories">
          <Link
            to="/news"
            className={d.categoryId === null ? "chip active" : "chip"}
            aria-current={d.categoryId === null ? "page" : undefined}
          >
            {t("all")}
          </Link>
          {d.categories.map((c) => (
            <Link
              key={c.id}
              to={listHref(c.id)}
              className={d.categoryId === c.id ? "chip active" : "chip"}
              aria-current={d.categoryId === c.id ? "page" : undefined}
              data-testid="news-category"
            >
              {c.name}
            </Link>
          ))}
        </nav>
      ) : null}
      {d.notice ? (
        <p className="card notice" role="status" data-testid="news-notice">
          {d.notice}
        </p>
      ) : d.items.length === 0 ? (
        <p className="card empty" data-testid="news-empty">
          {t("news_empty")}
        </p>
      ) : (
        <ul className="news-list" role="list" data-testid="news-list">
          {d.items.map((n) => (
            <li key={n.id} className="card news-item" data-testid="news-item" data-id={n.id}>
              <Link to={`/news/detail?id=${n.id}`} className="news-link">
                {n.picture ? (
                  <img
                    src={n.picture}
                    alt=""
                    width={96}
                    height={72}
                    loading="lazy"
                    className="news-picture"
                  />
                ) : null}
                <span className="news-text">
                  <span className="news-category muted">{n.category_name}</span>
                  <span className="news-title">{n.title}</span>
                  {n.desc ? <span className="news-desc">{n.desc}</span> : null}
                  <time className="muted news-date" dateTime={n.created_at.replace(" ", "T") + "Z"}>
                    {formatDateTime(n.created_at, d.lang)}
                  </time>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={d.page}
        pages={d.pages}
        labels={readerPagerLabels(t, d.page, d.pages)}
        href={(p) => listHref(d.categoryId, p)}
        testId="news-page"
      />
    </div>
  );
}
