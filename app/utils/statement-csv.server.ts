/**
 * The statement's downloads (/mine/statements/positions.csv and /mine/statements/ledger.csv, each
 * ?from=&to=): every position closed in the range, or every ledger row of it, oldest first, as a
 * CSV file in the reader's language (its header line and its words; figures with a dot and no
 * grouping, times in UTC, money exact to the micro-dollar). A range the form refuses answers 400
 * with its translated message, a demo account the upstream's reason; both as text.
 */
import type { TFunction } from "i18next";
import type { StatementPosition, StatementRow } from "@contract/api/statements";
import { STATEMENT_EXPORT_PAGE, STATEMENT_MAX_DAYS } from "@contract/api/statements-rules";
import { getT } from "~/i18n.server";
import { callerFor, type UpstreamResult } from "~/upstream/client.server";
import { statementLedger, statementPositions, type DayRange } from "~/upstream/statements.server";
import { refusalStatus } from "~/utils/forms.server";
import { requireSignedIn } from "~/utils/session.server";
import { everyPage, readRange } from "~/utils/statements.server";
import { csvLine, csvResponse, type Cell } from "~/utils/csv.server";

type Page<T> = UpstreamResult<{ data: T[]; total: number }>;

interface Export<T> {
  /** The file's name part: positions or ledger. */
  name: string;
  header: (t: TFunction) => string[];
  cells: (t: TFunction, item: T) => Cell[];
  read: (
    caller: Awaited<ReturnType<typeof callerFor>>,
    range: DayRange,
    page: number,
    size: number,
  ) => Promise<Page<T>>;
}

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });

const num = (n: string) => ({ n });

export const POSITIONS: Export<StatementPosition> = {
  name: "positions",
  header: (t) =>
    [
      "id",
      "instrument",
      "side",
      "lots",
      "leverage",
      "open_price",
      "close_price",
      "opened",
      "closed",
      "fee",
      "profit",
      "net",
      "reason",
    ].map((c) => t(`csv.${c}`)),
  cells: (t, p) => [
    num(String(p.id)),
    p.code,
    t(p.side === 1 ? "side_buy" : "side_sell"),
    num(p.lots),
    num(String(p.leverage)),
    num(p.open_price.toFixed(p.precision)),
    num(p.close_price.toFixed(p.precision)),
    p.opened_at,
    p.closed_at,
    num(p.fee),
    num(p.profit),
    num(p.net),
    p.reason ? t(`reason_${p.reason}`) : "",
  ],
  read: (caller, range, page, size) => statementPositions(caller, range, page, size),
};

export const LEDGER: Export<StatementRow> = {
  name: "ledger",
  header: (t) =>
    ["id", "time", "kind", "description", "line", "amount", "balance"].map((c) => t(`csv.${c}`)),
  cells: (t, r) => [
    num(String(r.id)),
    r.at,
    r.kind,
    r.memo,
    t(`line_${r.line}`),
    num(r.amount),
    num(r.balance),
  ],
  read: (caller, range, page, size) => statementLedger(caller, range, page, size),
};

/** The download of one of the statement's lists, for a request. */
export async function statementCsv<T>(request: Request, what: Export<T>): Promise<Response> {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["statements", "common"]);
  const read = readRange(new URL(request.url), Date.now());
  if (!read.ok) {
    const key = read.errors.from ?? read.errors.to ?? "statements:date_invalid";
    return text(400, t(key, { max: STATEMENT_MAX_DAYS }));
  }
  const range = read.range;
  const size = (page: number, n: number) => what.read(caller, range, page, n);
  const first = await size(1, STATEMENT_EXPORT_PAGE);
  if (!first.ok) return text(refusalStatus(first), first.msg);
  async function* lines(): AsyncGenerator<string> {
    for await (const items of everyPage<T>(size, first))
      yield items.map((item) => csvLine(what.cells(t, item))).join("");
  }
  return csvResponse(
    `tradepost-${what.name}-${range.from}-${range.to}.csv`,
    what.header(t),
    lines(),
    (err) => console.error(`statement ${what.name} download failed`, err),
  );
}
