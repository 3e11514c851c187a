/**
 * /mine/statements' server side: the range asked for (a preset, the days typed, or this month),
 * the statement's balances and lines, and one page of its closed positions and one of its ledger
 * rows (each list paged by its own links). A range the form refuses answers 400 with the fields'
 * messages and reads nothing; a demo account gets the upstream's translated reason.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { presetRange, STATEMENT_PRESETS } from "@contract/api/statements-rules";
import { callerFor } from "~/upstream/client.server";
import { statement, statementLedger, statementPositions } from "~/upstream/statements.server";
import { requireSignedIn } from "~/utils/session.server";
import { pageParam, readRange } from "~/utils/statements.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const url = new URL(request.url);
  const now = Date.now();
  const presets = STATEMENT_PRESETS.map((p) => ({ preset: p, ...presetRange(p, now) }));
  const read = readRange(url, now);
  const base = { lang: caller.lang, presets };
  if (!read.ok)
    return data(
      {
        ...base,
        values: read.values,
        errors: read.errors,
        preset: null,
        statement: null,
        notice: null,
        rows: null,
        positions: null,
      },
      { status: 400 },
    );
  const range = read.range;
  const rowsPage = pageParam(url, "rows_page");
  const positionsPage = pageParam(url, "positions_page");
  const [sum, rows, positions] = await Promise.all([
    statement(caller, range),
    statementLedger(caller, range, rowsPage),
    statementPositions(caller, range, positionsPage),
  ]);
  const pages = (total: number) => Math.max(1, Math.ceil(total / PAGE_SIZE));
  return {
    ...base,
    values: range,
    errors: {} as { from?: string; to?: string },
    preset: read.preset,
    statement: sum.ok ? sum.data : null,
    // A demo account (or another refusal): the upstream's translated reason instead.
    notice: sum.ok ? null : sum.msg,
    rows: rows.ok
      ? {
          items: rows.data.data,
          page: rowsPage,
          pages: pages(rows.data.total),
          total: rows.data.total,
        }
      : null,
    positions: positions.ok
      ? {
          items: positions.data.data,
          page: positionsPage,
          pages: pages(positions.data.total),
          total: positions.data.total,
        }
      : null,
  };
}
