/**
 * Announcements (/mine/announcement, login required; product-spec.md section 2): the list, newest
 * first with the policy notice on top, and with ?id= one announcement. Plain links both ways.
 */
import type { LinksFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { Pager, readerPagerLabels } from "~/components/Pager";
import { formatDateTime } from "~/utils/format";
import contentStyles from "~/styles/content.css";
import type { loader } from "./announcement.server";

export { loader } from "./announcement.server";

export const handle = { i18n: ["common", "content"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

const isoOf = (wire: string) => wire.replace(" ", "T") + "Z";

export default function Announcements() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("content");
  if (d.mode === "detail")
    return (
      <div className="announcements">
        <PageHeader title={t("notices_title")} back="/mine/announcement" />
        {!d.detail ? (
          <p className="card notice" role="status" data-testid="notice-missing">
            {d.notice || t("notice_missing")}{" "}
            <Link to="/mine/announcement">{t("notices_back")}</Link>
          </p>
        ) : (
          <article
            className="card article"
            data-testid="notice-article"
            aria-labelledby="notice-title"
          >
            <p className="muted article-meta">
              {d.detail.is_policy ? (
                <span className="badge" data-testid="policy-badge">
                  {t("policy_badge")}
                </span>
              ) : null}{" "}
              <time dateTime={isoOf(d.detail.created_at)}>
                {formatDateTime(d.detail.created_at, d.lang)}
              </time>
            </p>
            <h2 id="notice-title" className="article-title">
              {d.detail.title}
            </h2>
            <div
              className="article-body"
              data-testid="article-body"
              dangerouslySetInnerHTML={{ __html: d.detail.html }}
            />
          </article>
        )}
      </div>
    );
  return (
    <div className="announcements">
      <PageHeader title={t("notices_title")} back="/user" />
      {d.notice ? (
        <p className="card notice" role="status" data-testid="notices-notice">
          {d.notice}
        </p>
      ) : d.list.length === 0 ? (
        <p className="card empty" data-testid="notices-empty">
          {t("notices_empty")}
        </p>
      ) : (
        <ul className="card notice-list" role="list" data-testid="notice-list">
          {d.list.map((n) => (
            <li key={n.id} className="notice-row" data-testid="notice-item" data-id={n.id}>
              <Link to={`/mine/announcement?id=${n.id}`} className="notice-link">
                <span className="notice-title">
                  {n.is_policy ? <span className="badge">{t("policy_badge")}</span> : null}{" "}
                  {n.title}
                </span>
                <time className="muted" dateTime={isoOf(n.created_at)}>
                  {formatDateTime(n.created_at, d.lang)}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pager
        page={d.page}
        pages={d.pages}
        labels={readerPagerLabels(t, d.page, d.pages)}
        href={(p) => `/mine/announcement?page=${p}`}
        testId="notices-page"
      />
    </div>
  );
}
