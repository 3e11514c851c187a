/**
 * The copy module's SQL: copies, their accounts (users rows owned by the follower), the trades each
 * copy mirrored or skipped, and what copiers read about a provider.
 */
import { ORDER_STATUS } from "@contract/enums";
import type { CopyMode, CopyStatus, CopyStopReason } from "@contract/api/copy";
import { chunked, prepareOnce, tuples, type DB } from "../../platform/db.js";
import { newInviteCode, newUid } from "../identity/store.js";
import { closedUpTo, type ClosedSums } from "../follow/store.js";

export interface CopyRow {
  id: number;
  user_id: number;
  provider_id: number;
  account_id: number;
  mode: CopyMode;
  multiple: string;
  stop_loss_pct: number;
  copy_open: number;
  invested_micro: number;
  status: CopyStatus;
  stop_reason: CopyStopReason | null;
  stop_remark: string | null;
  created_at: number;
  stopped_at: number | null;
}

export interface ProviderRow {
  user_id: number;
  name: string;
  style: string;
  description: string;
  min_investment_micro: number;
  start_capital_micro: number;
  hidden: number;
  stopped_at: number | null;
}

export interface CopyTradeRow {
  id: number;
  copy_id: number;
  provider_order_id: number;
  order_id: number | null;
  lots: string | null;
  skip_reason: string | null;
  detached: number;
  created_at: number;
}

/** A new copy's account: the owner's kind of money (demo or real), no way to sign in. */
export function insertCopyAccount(db: DB, a: { ownerId: number; isDemo: number; now: number }) {
  const r = db
    .prepare(
      "INSERT INTO users (uid, invite_code, is_demo, copy_owner_id, created_at) VALUES (?, ?, ?, ?, ?)",
    )
    .run(newUid(db), newInviteCode(db), a.isDemo, a.ownerId, a.now);
  return Number(r.lastInsertRowid);
}

export function insertCopy(
  db: DB,
  c: {
    userId: number;
    providerId: number;
    accountId: number;
    mode: CopyMode;
    multiple: string;
    stopLossPct: number;
    copyOpen: number;
    investedMicro: number;
    now: number;
  },
): number {
  const r = db
    .prepare(
      `INSERT INTO copies (user_id, provider_id, account_id, mode, multiple, stop_loss_pct, copy_open,
         invested_micro, status, created_at)
       VALUES (@userId, @providerId, @accountId, @mode, @multiple, @stopLossPct, @copyOpen,
         @investedMicro, 'active', @now)`,
    )
    .run(c);
  return Number(r.lastInsertRowid);
}

export function copyById(db: DB, id: number): CopyRow | undefined {
  return db.prepare("SELECT * FROM copies WHERE id = ?").get(id) as CopyRow | undefined;
}

/** The user's copies, newest first. */
export function copiesOfUser(db: DB, userId: number): CopyRow[] {
  return db
    .prepare("SELECT * FROM copies WHERE user_id = ? ORDER BY id DESC")
    .all(userId) as CopyRow[];
}

/** How many copies of the user are not stopped (active or paused). */
export function liveCopiesOf(db: DB, userId: number): number {
  return Number(
    (
      db
        .prepare("SELECT COUNT(*) AS n FROM copies WHERE user_id = ? AND status <> 'stopped'")
        .get(userId) as { n: number | string }
    ).n,
  );
}

/** Every copy not stopped (active or paused), oldest first. */
export function liveCopies(db: DB): CopyRow[] {
  return db
    .prepare("SELECT * FROM copies WHERE status <> 'stopped' ORDER BY id")
    .all() as CopyRow[];
}

export function setCopyStatus(db: DB, id: number, status: "active" | "paused"): void {
  db.prepare("UPDATE copies SET status = ? WHERE id = ? AND status <> 'stopped'").run(status, id);
}

export function markCopyStopped(
  db: DB,
  s: { id: number; reason: CopyStopReason; remark: string | null; now: number },
): void {
  db.prepare(
    "UPDATE copies SET status = 'stopped', stop_reason = @reason, stop_remark = @remark, stopped_at = @now WHERE id = @id",
  ).run(s);
}

export function addInvested(db: DB, id: number, deltaMicro: number): void {
  db.prepare("UPDATE copies SET invested_micro = invested_micro + ? WHERE id = ?").run(
    deltaMicro,
    id,
  );
}

/** A copy's record of one provider trade: the order it opened, or why it skipped it. */
export interface NewCopyTrade {
  copyId: number;
  providerOrderId: number;
  orderId: number | null;
  lots: string | null;
  skipReason: string | null;
  now: number;
}

/** Records copy trades in order, one INSERT per ROWS_PER_STATEMENT (a trade seen before is kept). */
export function insertCopyTrades(db: DB, ts: readonly NewCopyTrade[]): void {
  for (const part of chunked(ts))
    prepareOnce(
      db,
      `INSERT INTO copy_trades (copy_id, provider_order_id, order_id, lots, skip_reason, created_at)
       VALUES ${tuples(part.length, "(?, ?, ?, ?, ?, ?)")}
       ON CONFLICT (copy_id, provider_order_id) DO NOTHING`,
    ).run(
      part.flatMap((t) => [t.copyId, t.providerOrderId, t.orderId, t.lots, t.skipReason, t.now]),
    );
}

export function insertCopyTrade(db: DB, t: NewCopyTrade): void {
  db.prepare(
    `INSERT INTO copy_trades (copy_id, provider_order_id, order_id, lots, skip_reason, created_at)
     VALUES (@copyId, @providerOrderId, @orderId, @lots, @skipReason, @now)
     ON CONFLICT (copy_id, provider_order_id) DO NOTHING`,
  ).run(t);
}

/** A copy's position that follows a provider's position. */
export interface Follower {
  copy_id: number;
  account_id: number;
  order_id: number;
}

/**
 * Every copy's open position that follows a provider's position (detached ones left out), with
 * the provider's position it follows: what the copy service holds in memory (its followers index).
 */
export function openFollowers(db: DB): (Follower & { provider_order_id: number })[] {
  return (
    db
      .prepare(
        `SELECT t.provider_order_id, t.copy_id, c.account_id, t.order_id
         FROM copy_trades t JOIN copies c ON c.id = t.copy_id JOIN orders o ON o.id = t.order_id
         WHERE o.status = ${ORDER_STATUS.OPEN} AND t.detached = 0`,
      )
      .all() as (Follower & { provider_order_id: number })[]
  ).map((r) => ({
    provider_order_id: Number(r.provider_order_id),
    copy_id: Number(r.copy_id),
    account_id: Number(r.account_id),
    order_id: Number(r.order_id),
  }));
}

/** Whether the copy already saw this provider trade (copied or skipped). */
export function copySawOrder(db: DB, copyId: number, providerOrderId: number): boolean {
  return (
    db
      .prepare("SELECT 1 AS x FROM copy_trades WHERE copy_id = ? AND provider_order_id = ?")
      .get(copyId, providerOrderId) !== undefined
  );
}

export function copyTradeOfOrder(db: DB, orderId: number): CopyTradeRow | undefined {
  return db.prepare("SELECT * FROM copy_trades WHERE order_id = ?").get(orderId) as
    CopyTradeRow | undefined;
}

export function detachCopyTrade(db: DB, orderId: number): void {
  db.prepare("UPDATE copy_trades SET detached = 1 WHERE order_id = ?").run(orderId);
}

/** The copy's positions with the provider's position each follows; `status` open or closed. */
export function copiedOrders(
  db: DB,
  copyId: number,
  status: number,
  limit: number,
): { order_id: number; provider_order_id: number }[] {
  return db
    .prepare(
      `SELECT t.order_id, t.provider_order_id FROM copy_trades t JOIN orders o ON o.id = t.order_id
       WHERE t.copy_id = ? AND o.status = ? ORDER BY o.id DESC LIMIT ?`,
    )
    .all(copyId, status, limit) as { order_id: number; provider_order_id: number }[];
}

/** The provider trades a copy skipped, newest first, with the provider's instrument, side and lots. */
export function skippedTrades(
  db: DB,
  copyId: number,
  limit: number,
): {
  provider_order_id: number;
  show_code: string;
  order_type: number;
  lots: string;
  skip_reason: string;
  created_at: number;
}[] {
  return db
    .prepare(
      `SELECT t.provider_order_id, i.show_code, o.order_type, o.lots, t.skip_reason, t.created_at
       FROM copy_trades t JOIN orders o ON o.id = t.provider_order_id
       JOIN instruments i ON i.id = o.instrument_id
       WHERE t.copy_id = ? AND t.skip_reason IS NOT NULL ORDER BY t.id DESC LIMIT ?`,
    )
    .all(copyId, limit) as ReturnType<typeof skippedTrades>;
}

// ---------------------------------------------------------------- providers

export function providerById(db: DB, userId: number): ProviderRow | undefined {
  return db
    .prepare(
      `SELECT user_id, name, style, description, min_investment_micro, start_capital_micro, hidden,
         stopped_at FROM strategy_traders WHERE user_id = ?`,
    )
    .get(userId) as ProviderRow | undefined;
}

/** The provider's copiers (copies not stopped) and the money in them (invested sums). */
export function copyingOf(db: DB, providerId: number): { copiers: number; invested: number } {
  const r = db
    .prepare(
      `SELECT COUNT(*) AS copiers, COALESCE(SUM(invested_micro), 0) AS invested FROM copies
       WHERE provider_id = ? AND status <> 'stopped'`,
    )
    .get(providerId) as { copiers: number; invested: number };
  return r;
}

/**
 * Count, wins (net > 0) and Σ net of every position the provider closed: its ranking checkpoint
 * plus the positions closed since (follow/store.ts closedUpTo), a bounded read.
 */
export function closedTotals(
  db: DB,
  userId: number,
  sums: ClosedSums = closedUpTo(db, userId),
): { n: number; wins: number; net: number } {
  return { n: sums.count, wins: sums.wins, net: sums.netMicro };
}

/**
 * Show codes of the instruments the provider traded (open and closed positions), most traded
 * first: the closed ones from closedUpTo (a bounded read), the open ones counted here.
 */
export function instrumentsTraded(
  db: DB,
  userId: number,
  closed: ClosedSums = closedUpTo(db, userId),
): string[] {
  const counts = new Map<number, number>(
    Object.entries(closed.instruments).map(([id, n]) => [Number(id), n]),
  );
  const open = db
    .prepare(
      `SELECT o.instrument_id AS id, COUNT(*) AS n FROM orders o
       WHERE o.user_id = ? AND o.status = ${ORDER_STATUS.OPEN} GROUP BY o.instrument_id`,
    )
    .all(userId) as { id: number; n: number }[];
  for (const r of open) counts.set(Number(r.id), (counts.get(Number(r.id)) ?? 0) + Number(r.n));
  const codes = new Map(
    (
      db.prepare("SELECT id, show_code FROM instruments").all() as {
        id: number;
        show_code: string;
      }[]
    ).map((r) => [Number(r.id), r.show_code]),
  );
  const byCode = new Map<string, number>();
  for (const [id, n] of counts) {
    const code = codes.get(id);
    if (code !== undefined && n > 0) byCode.set(code, (byCode.get(code) ?? 0) + n);
  }
  return [...byCode.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([code]) => code);
}

/** The provider's latest filled trade (open or closed): instrument, side, lots. */
export function lastTrade(
  db: DB,
  userId: number,
): { instrument_id: number; show_code: string; order_type: number; lots: string } | undefined {
  return db
    .prepare(
      `SELECT o.instrument_id, i.show_code, o.order_type, o.lots FROM orders o
       JOIN instruments i ON i.id = o.instrument_id
       WHERE o.user_id = ? AND o.status IN (${ORDER_STATUS.OPEN}, ${ORDER_STATUS.CLOSED})
       ORDER BY o.opened_at DESC, o.id DESC LIMIT 1`,
    )
    .get(userId) as
    { instrument_id: number; show_code: string; order_type: number; lots: string } | undefined;
}

/** The user's kind of money and whether the account is itself a copy's. */
export function accountKind(
  db: DB,
  userId: number,
): { is_demo: number; copy_owner_id: number | null } | undefined {
  return db.prepare("SELECT is_demo, copy_owner_id FROM users WHERE id = ?").get(userId) as
    { is_demo: number; copy_owner_id: number | null } | undefined;
}

/** Every provider (hidden ones too) with its copiers and the money in them, by id. */
export function providersWithCopying(
  db: DB,
): (ProviderRow & { copiers: number; invested: number })[] {
  return db
    .prepare(
      `SELECT t.user_id, t.name, t.style, t.description, t.min_investment_micro, t.start_capital_micro,
         t.hidden, t.stopped_at,
         (SELECT COUNT(*) FROM copies c WHERE c.provider_id = t.user_id AND c.status <> 'stopped') AS copiers,
         (SELECT COALESCE(SUM(c.invested_micro), 0) FROM copies c
            WHERE c.provider_id = t.user_id AND c.status <> 'stopped') AS invested
       FROM strategy_traders t ORDER BY t.user_id`,
    )
    .all() as (ProviderRow & { copiers: number; invested: number })[];
}

export function setProviderHidden(db: DB, userId: number, hidden: number): void {
  db.prepare("UPDATE strategy_traders SET hidden = ? WHERE user_id = ?").run(hidden, userId);
}

/** A user becomes a provider, or changes the settings (and is copyable again). */
export function upsertUserProvider(
  db: DB,
  p: {
    userId: number;
    name: string;
    description: string;
    minInvestmentMicro: number;
    startCapitalMicro: number;
    now: number;
  },
): void {
  db.prepare(
    `INSERT INTO strategy_traders (user_id, name, style, start_capital_micro, created_at, description,
       min_investment_micro)
     VALUES (@userId, @name, 'user', @startCapitalMicro, @now, @description, @minInvestmentMicro)
     ON CONFLICT (user_id) DO UPDATE SET name = excluded.name, description = excluded.description,
       min_investment_micro = excluded.min_investment_micro, stopped_at = NULL`,
  ).run(p);
}

export function stopUserProvider(db: DB, userId: number, now: number): void {
  db.prepare(
    "UPDATE strategy_traders SET stopped_at = ? WHERE user_id = ? AND stopped_at IS NULL",
  ).run(now, userId);
}

/** Whether another provider already uses this public name (names are unique, case aside). */
export function providerNameTaken(db: DB, name: string, userId: number): boolean {
  return (
    db
      .prepare("SELECT 1 AS x FROM strategy_traders WHERE lower(name) = lower(?) AND user_id <> ?")
      .get(name, userId) !== undefined
  );
}

/** The latest real-name request's status of a user (REAL_NAME_REQUEST), or undefined. */
export function realNameStatus(db: DB, userId: number): number | undefined {
  const r = db
    .prepare("SELECT status FROM real_name_requests WHERE user_id = ? ORDER BY id DESC LIMIT 1")
    .get(userId) as { status: number } | undefined;
  return r?.status;
}

// Each optional filter's parameter is typed by a CAST: PostgreSQL cannot tell the type of a
// parameter that is only tested for NULL.
const COPY_FILTER = `FROM copies c JOIN users u ON u.id = c.user_id
  WHERE (CAST(@uid AS TEXT) IS NULL OR u.uid = @uid)
    AND (CAST(@providerId AS BIGINT) IS NULL OR c.provider_id = @providerId)
    AND (CAST(@status AS TEXT) IS NULL OR c.status = @status)`;

/** A page of copies for operators, newest first, with the owner's uid. */
export function copiesPage(
  db: DB,
  q: { uid: string | null; providerId: number | null; status: string | null },
  page: number,
  pageSize: number,
): { rows: (CopyRow & { uid: string })[]; total: number } {
  const params = { ...q, limit: pageSize, offset: (page - 1) * pageSize };
  const rows = db
    .prepare(`SELECT c.*, u.uid ${COPY_FILTER} ORDER BY c.id DESC LIMIT @limit OFFSET @offset`)
    .all(params) as (CopyRow & { uid: string })[];
  const total = (db.prepare(`SELECT COUNT(*) AS n ${COPY_FILTER}`).get(q) as { n: number }).n;
  return { rows, total };
}

/** The uid of a user (a copy's owner). */
export function uidOfUser(db: DB, userId: number): string {
  return (db.prepare("SELECT uid FROM users WHERE id = ?").get(userId) as { uid: string }).uid;
}
