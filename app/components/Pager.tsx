import { Link } from "@remix-run/react";

interface PagerLabels {
  /** The navigation's name. */
  nav: string;
  prev: string;
  next: string;
  /** "Page 2 of 5". */
  pageOf: string;
}

/**
 * Previous / next page links of a paged list (plain links: they work without JavaScript). `href`
 * builds a page's address, keeping the list's other query parameters.
 */
export function Pager({
  page,
  pages,
  href,
  labels,
  testId,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  labels: PagerLabels;
  testId?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={labels.nav}>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className="btn">
          {labels.prev}
        </Link>
      ) : (
        <span />
      )}
      <span className="muted" data-testid={testId}>
        {labels.pageOf}
      </span>
      {page < pages ? (
        <Link to={href(page + 1)} rel="next" className="btn">
          {labels.next}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** The labels of a reader's list (content namespace): newer / older. */
export function readerPagerLabels(
  t: (key: string, o?: Record<string, unknown>) => string,
  page: number,
  pages: number,
): PagerLabels {
  return {
    nav: t("content:pages"),
    prev: t("content:newer"),
    next: t("content:older"),
    pageOf: t("content:page_of", { page, pages }),
  };
}
