/**
 * Infinite scroll over a paged list whose pages are the route's own loader (?page=N): the server's
 * page first, then the next pages appended (without duplicates) when the sentinel comes into view.
 * Without JavaScript the page shows page links instead (the sentinel is only drawn once hydrated).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";

/** What a page of the list carries (the loader's answer). */
interface ListPage<T> {
  rows: T[];
  page: number;
  hasNext: boolean;
}

export function useInfiniteList<T, P extends ListPage<T>>({
  first,
  pageHref,
  idOf,
  sameList,
}: {
  /** The page the server rendered (a new one starts the list again). */
  first: P;
  /** Address of page `n` of this list. */
  pageHref: (n: number) => string;
  idOf: (row: T) => number | string;
  /** Whether a loaded page belongs to the list shown (e.g. the same tab). */
  sameList: (page: P) => boolean;
}): {
  rows: T[];
  sentinel: (el: HTMLDivElement | null) => void;
  loading: boolean;
  hasMore: boolean;
} {
  const [extra, setExtra] = useState<T[]>([]);
  const [nextPage, setNextPage] = useState<number | null>(first.hasNext ? first.page + 1 : null);
  useEffect(() => {
    setExtra([]);
    setNextPage(first.hasNext ? first.page + 1 : null);
  }, [first]);

  const more = useFetcher<P>();
  const { rows: firstRows } = first;
  useEffect(() => {
    const md = more.data as P | undefined;
    if (!md || !sameList(md)) return;
    setExtra((prev) => {
      const seen = new Set([...firstRows, ...prev].map(idOf));
      return [...prev, ...md.rows.filter((o) => !seen.has(idOf(o)))];
    });
    setNextPage(md.hasNext ? md.page + 1 : null);
  }, [more.data, firstRows, idOf, sameList]);

  // A callback ref: the sentinel is observed from when it is drawn (after hydration).
  const [el, sentinel] = useState<HTMLDivElement | null>(null);
  const href = nextPage === null ? null : pageHref(nextPage);
  useEffect(() => {
    if (!el || href === null || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && more.state === "idle") more.load(href);
      },
      { rootMargin: "200px" },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [href, more, el]);

  return {
    rows: [...firstRows, ...extra],
    sentinel,
    loading: more.state !== "idle",
    hasMore: nextPage !== null,
  };
}
