/**
 * A paged list that scrolls on with JavaScript: the loader's page first; when the sentinel under
 * the list comes into view, the next page is fetched through `href(page)` (the same route's
 * loader, read by `pick`) and its rows are appended (rows already shown are not repeated). Without
 * JavaScript the page's links do the paging; they follow the pages loaded (`last`).
 */
import { useEffect, useRef, useState } from "react";
import { useFetcher } from "@remix-run/react";

interface PageOfRows<R> {
  rows: R[];
  page: number;
}

export function useAppendingPages<R extends { id: number }, D>(
  first: PageOfRows<R> & { pages: number },
  href: (page: number) => string,
  pick: (data: D) => PageOfRows<R> | null,
) {
  const fetcher = useFetcher<D>();
  // The rows shown and the last page they reach: the loader's page, then each appended one.
  const [loaded, setLoaded] = useState({ rows: first.rows, last: first.page });
  useEffect(() => setLoaded({ rows: first.rows, last: first.page }), [first.rows, first.page]);
  const pickRef = useRef(pick);
  pickRef.current = pick;
  useEffect(() => {
    const next = fetcher.data ? pickRef.current(fetcher.data as D) : null;
    if (!next) return;
    setLoaded((cur) => {
      if (next.page !== cur.last + 1) return cur;
      const seen = new Set(cur.rows.map((r) => r.id));
      return { rows: [...cur.rows, ...next.rows.filter((r) => !seen.has(r.id))], last: next.page };
    });
  }, [fetcher.data]);

  // Fetch the next page when the sentinel under the list comes into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const hrefRef = useRef(href);
  hrefRef.current = href;
  const state = useRef({ last: loaded.last, pages: first.pages, idle: fetcher.state === "idle" });
  state.current = { last: loaded.last, pages: first.pages, idle: fetcher.state === "idle" };
  const { load } = fetcher;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => {
      const s = state.current;
      if (entries.some((e) => e.isIntersecting) && s.idle && s.last < s.pages)
        load(hrefRef.current(s.last + 1));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [load, loaded.last]);

  return { rows: loaded.rows, last: loaded.last, sentinel, busy: fetcher.state !== "idle" };
}
