/** Addresses of the orders screen (tabs, pages, one order's detail). */

export function listHref(status: number, page = 1, detail?: number): string {
  const q = new URLSearchParams({ status: String(status) });
  if (page > 1) q.set("page", String(page));
  if (detail) q.set("detail", String(detail));
  return `/order?${q.toString()}`;
}
