/**
 * The account's ledger (/mine/history): its money now (balance, held for withdrawals under review,
 * available) and one page of rows, newest first, paged by links.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { callerFor } from "~/upstream/client.server";
import { forexChange } from "~/upstream/finance.server";
import { forexDetail } from "~/upstream/trading.server";
import { requireSignedIn } from "~/utils/session.server";

/** The page asked for: a whole number from 1 (anything else is page 1). */
function pageOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page") ?? "1";
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const page = pageOf(request);
  const [r, detail] = await Promise.all([forexChange(caller, page), forexDetail(caller)]);
  const summary = detail.ok
    ? {
        balance: detail.data.balance,
        held: detail.data.lock_balance,
        available: detail.data.can_use,
      }
    : null;
  if (!r.ok)
    // A demo account (or another refusal): the upstream's translated reason instead of the list.
    return { lang: caller.lang, page, summary, rows: [], total: 0, pages: 0, notice: r.msg };
  const pages = Math.max(1, Math.ceil(r.data.total / PAGE_SIZE));
  return {
    lang: caller.lang,
    page,
    summary,
    rows: r.data.data.map((row) => ({
      id: row.id,
      memo: row.MemoTran,
      value: row.Value,
      balance: row.Balance,
      at: row.CreatedAtTran,
      kind: row.Kind,
    })),
    total: r.data.total,
    pages,
    notice: null as string | null,
  };
}
