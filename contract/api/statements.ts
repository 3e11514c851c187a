/**
 * Statements and own statistics (upstream/API.md "Statements", "Statistics"): a real account's
 * statement for a range of days (its opening and closing balances, its movements by line, every
 * closed position and every ledger row, pages of each), the monthly statement e-mail the user may
 * ask for, and the signed-in account's own trading statistics (real and demo accounts alike, each
 * its own). Money is exact: micro-USD as decimal text with 6 places (statements-rules.ts).
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { optionalWholeField, pageField } from "../fields";
import { CLOSE_REASONS } from "../enums";
import { PAGE_SIZE } from "../constants";
import {
  MICRO_TEXT_RE,
  STATEMENT_EXPORT_PAGE,
  STATEMENT_LINES,
  STATS_MONTHS,
  type StatementLine,
} from "./statements-rules";

export * from "./statements-rules";

/** Exact USD: micro-USD as decimal text with 6 places. */
const money = z.string().regex(MICRO_TEXT_RE).describe("USD, exact: a decimal with 6 places");

/** A day of a statement's range, "YYYY-MM-DD" (UTC). */
const day = z
  .string({ message: "statements.date_invalid" })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "statements.date_invalid" })
  .describe("a day, YYYY-MM-DD, UTC");

/** The range of a statement: `from` to `to`, both days included (checked further by the route). */
const range = { from: day, to: day };

/** Rows a page of a statement's list: 1 to STATEMENT_EXPORT_PAGE, PAGE_SIZE when absent. */
const size = optionalWholeField(4, "statements.size_invalid")
  .refine((n) => n === undefined || (n >= 1 && n <= STATEMENT_EXPORT_PAGE), {
    message: "statements.size_invalid",
    params: { max: STATEMENT_EXPORT_PAGE },
  })
  .transform((n) => n ?? PAGE_SIZE);

export const StatementSchema = z.object({
  from: z.string().describe("the first day, YYYY-MM-DD (UTC)"),
  to: z.string().describe("the last day, YYYY-MM-DD (UTC), included"),
  opening: money.describe("the balance before the first day: the sum of every earlier ledger row"),
  lines: z
    .object(
      Object.fromEntries(STATEMENT_LINES.map((l) => [l, money])) as Record<
        StatementLine,
        typeof money
      >,
    )
    .describe("the sum of the range's ledger rows of each line (STATEMENT_LINES)"),
  closing: money.describe("the balance after the last day: opening + every line, exactly"),
  positions: z.number().int().describe("positions closed in the range"),
  ledger_rows: z.number().int().describe("ledger rows booked in the range"),
});
export type Statement = z.infer<typeof StatementSchema>;

export const StatementRowSchema = z.object({
  id: z.number().int(),
  at: z.string().describe("when it was booked, YYYY-MM-DD HH:mm:ss UTC"),
  kind: z.string().describe("the ledger kind (deposit, fee, realised_profit, copy_in, …)"),
  line: z.enum(STATEMENT_LINES).describe("the statement line it is summed on"),
  memo: z.string().describe("what it is, in the request's language"),
  amount: money.describe("signed amount"),
  balance: money.describe("the balance after it"),
});
export type StatementRow = z.infer<typeof StatementRowSchema>;

export const StatementPositionSchema = z.object({
  id: z.number().int(),
  code: z.string().describe("the instrument's show code"),
  side: z.number().int().describe("1 buy, 2 sell"),
  lots: z.string(),
  leverage: z.number().int(),
  open_price: z.number(),
  close_price: z.number(),
  precision: z.number().int().describe("the instrument's price precision"),
  opened_at: z.string().describe("UTC"),
  closed_at: z.string().describe("UTC"),
  fee: money.describe("the fee charged when it opened"),
  profit: money.describe("the realised profit booked when it closed"),
  net: money.describe("profit - fee"),
  reason: z.enum(CLOSE_REASONS).nullable().describe("why it closed"),
});
export type StatementPosition = z.infer<typeof StatementPositionSchema>;

const pageOf = <S extends z.ZodTypeAny>(item: S) =>
  z.object({
    data: z.array(item).describe("oldest first"),
    total: z.number().int(),
  });

export const StatementRowPageSchema = pageOf(StatementRowSchema);
export type StatementRowPage = z.infer<typeof StatementRowPageSchema>;
export const StatementPositionPageSchema = pageOf(StatementPositionSchema);
export type StatementPositionPage = z.infer<typeof StatementPositionPageSchema>;

export const statement = endpoint({
  data: StatementSchema,
  method: "GET",
  path: "/api/user/statement",
  auth: true,
  realAccount: true,
  tag: "statements",
  summary: "The account's statement for the days from..to (UTC): balances and lines",
  query: z.object({ ...range, ...cacheBuster }),
});

export const statementLedger = endpoint({
  data: StatementRowPageSchema,
  method: "GET",
  path: "/api/user/statement/ledger",
  auth: true,
  realAccount: true,
  tag: "statements",
  summary: "A page of the statement's ledger rows, oldest first, each with its line",
  query: z.object({ ...range, page: pageField(), size, ...cacheBuster }),
});

export const statementPositions = endpoint({
  data: StatementPositionPageSchema,
  method: "GET",
  path: "/api/user/statement/positions",
  auth: true,
  realAccount: true,
  tag: "statements",
  summary: "A page of the positions closed in the statement's range, oldest first",
  query: z.object({ ...range, page: pageField(), size, ...cacheBuster }),
});

export const StatementMailSchema = z.object({
  monthly: z.boolean().describe("a statement of each month is e-mailed after it ends"),
  has_email: z.boolean().describe("the account has an e-mail address to send to"),
  last_month: z.string().describe("the last month whose statement was e-mailed (YYYY-MM), or ''"),
});
export type StatementMail = z.infer<typeof StatementMailSchema>;

/** A checkbox: "1" (or "on", "true") ticked; absent or anything else not. */
const ticked = z.preprocess((v) => v === "1" || v === "on" || v === "true" || v === 1, z.boolean());

export const statementMail = endpoint({
  data: StatementMailSchema,
  method: "GET",
  path: "/api/user/statement_mail",
  auth: true,
  realAccount: true,
  tag: "statements",
  summary: "Whether the monthly statement is e-mailed to the account",
  query: z.object({ ...cacheBuster }),
});

export const statementMailSave = endpoint({
  data: StatementMailSchema,
  method: "POST",
  path: "/api/user/statement_mail",
  auth: true,
  realAccount: true,
  tag: "statements",
  summary: "Ask for the monthly statement by e-mail (monthly=1) or stop it (absent)",
  body: z.object({ monthly: ticked.optional() }),
});

/** The figures of a set of closed positions (net = profit − fee; a win has net > 0, a loss < 0). */
export const TradeFiguresSchema = z.object({
  trades: z.number().int().describe("closed positions"),
  wins: z.number().int(),
  losses: z.number().int(),
  win_rate: z.number().describe("wins over trades, percent (2 decimals); 0 without trades"),
  net_profit: money.describe("Σ net"),
  average_win: money.describe("Σ net of the wins over their count; 0 without one"),
  average_loss: money.describe("Σ net of the losses over their count (negative); 0 without one"),
  largest_win: money.describe("the largest net of a win; 0 without one"),
  largest_loss: money.describe("the smallest net of a loss (negative); 0 without one"),
  average_holding_s: z.number().int().describe("mean time from open to close, seconds"),
});
export type TradeFigures = z.infer<typeof TradeFiguresSchema>;

export const OwnStatsSchema = z.object({
  account: z.enum(["real", "demo"]).describe("the signed-in account's kind; never both mixed"),
  figures: TradeFiguresSchema.describe("every position the account closed"),
  max_drawdown: money.describe(
    "largest fall of the cumulative net (closes in order, from 0) below a previous peak; ≥ 0",
  ),
  months: z
    .array(
      z.object({
        month: z.string().describe("YYYY-MM (UTC)"),
        net: money,
        trades: z.number().int(),
      }),
    )
    .describe(`the last STATS_MONTHS (${STATS_MONTHS}) months, oldest first, this month last`),
  instruments: z
    .array(
      z.object({
        code: z.string(),
        trades: z.number().int(),
        wins: z.number().int(),
        win_rate: z.number().describe("wins over trades, percent (2 decimals)"),
        net: money,
      }),
    )
    .describe("closed positions by instrument, most traded first"),
});
export type OwnStats = z.infer<typeof OwnStatsSchema>;

export const ownStats = endpoint({
  data: OwnStatsSchema,
  method: "GET",
  path: "/api/user/stats",
  auth: true,
  tag: "statements",
  summary: "The signed-in account's own trading statistics (real or demo, each its own)",
  query: z.object({ ...cacheBuster }),
});
