/**
 * The trading module's SQL, and only here: the orders table as the engine writes it, the account
 * columns it reads, the pages of my_deal, the trade settings and the instruments as the engine
 * trades them. Every statement is behind a named function taking named parameters (`@name`
 * bindings); the statements are prepared once per store and reused (the engine's hot path books
 * through them). Balances are never written here: that is the money service's (money/service.ts).
 */
import assert from "node:assert/strict";
import { ORDER_STATUS, ORDER_TAB, type OrderTab } from "@contract/enums";
import { PAGE_SIZE } from "@contract/constants";
import {
  chunked,
  prepareOnce,
  inList,
  tuples,
  type DB,
  type RunResult,
} from "../../platform/db.js";
import { expectChanges } from "../../platform/store/expect-changes.js";
import { allLater } from "../../platform/store/read-later.js";
import type { InstrumentRow } from "../market/instruments.js";
import type { CloseReason, PendingKind } from "./orders.js";

export { PAGE_SIZE };

/** A row of the orders table. */
export interface OrderRow {
  id: number;
  user_id: number;
  instrument_id: number;
  order_type: number;
  status: number;
  pending_kind: PendingKind | null;
  lots: string;
  units: string;
  leverage: number;
  origin_price: number;
  open_price: number | null;
  close_price: number | null;
  take_profit: number | null;
  stop_loss: number | null;
  margin_micro: number;
  fee_micro: number;
  profit_micro: number | null;
  close_reason: CloseReason | null;
  created_at: number;
  opened_at: number | null;
  closed_at: number | null;
  trail_distance: number | null;
  trail_activation: number | null;
  break_even: number | null;
  expires_at: number | null;
  parent_id: number | null;
}

/** An order row with its instrument's codes, as my_deal reads it. */
export type ListedOrderRow = OrderRow & { code: string; show_code: string };

/** The columns of an instruments row the engine reads. */
export type InstrumentSpecRow = Pick<
  InstrumentRow,
  | "id"
  | "code"
  | "show_code"
  | "quote_currency"
  | "price_precision"
  | "pip"
  | "min_lots"
  | "cont_num"
  | "margin_mode"
  | "multiples"
  | "fee_rate"
  | "enabled"
  | "session"
>;

/** The settings keys the engine trades by (settings.ts reads their values). */
export const TRADE_SETTING_KEYS = [
  "trade_fee_type",
  "trade.max_lots",
  "market.stale_after_s",
  "risk.margin_call_pct",
  "risk.stop_out_pct",
  "demo.initial_balance",
  "trade.max_orders",
] as const;

const TRADE_SETTINGS = `SELECT key, value FROM settings WHERE key IN (${TRADE_SETTING_KEYS.map((k) => `'${k}'`).join(", ")})`;

const { PENDING, OPEN, CLOSED, CANCELLED } = ORDER_STATUS;
const LIVE = `(${PENDING}, ${OPEN})`;
const HISTORY = `(${CLOSED}, ${CANCELLED})`;
const LISTED =
  "SELECT o.*, i.code, i.show_code FROM orders o JOIN instruments i ON i.id = o.instrument_id";

/** The statements of the trader's tools: partial closes and trailing stops. */
function prepareTools(db: DB) {
  return {
    insertPart: db.prepare(
      `INSERT INTO orders (user_id, instrument_id, order_type, status, lots, units, leverage,
         origin_price, open_price, close_price, take_profit, stop_loss, margin_micro, fee_micro,
         profit_micro, close_reason, created_at, opened_at, closed_at, parent_id)
       SELECT user_id, instrument_id, order_type, ${CLOSED}, @lots, @units, leverage,
         origin_price, open_price, @closePrice, take_profit, stop_loss, @marginMicro, @feeMicro,
         @profitMicro, @reason, created_at, opened_at, @closedAt, id
       FROM orders WHERE id = @parentId AND status = ${OPEN}
       RETURNING id`,
    ),
    insertPartWithId: db.prepare(
      `INSERT INTO orders (id, user_id, instrument_id, order_type, status, lots, units, leverage,
         origin_price, open_price, close_price, take_profit, stop_loss, margin_micro, fee_micro,
         profit_micro, close_reason, created_at, opened_at, closed_at, parent_id)
       SELECT @id, user_id, instrument_id, order_type, ${CLOSED}, @lots, @units, leverage,
         origin_price, open_price, @closePrice, take_profit, stop_loss, @marginMicro, @feeMicro,
         @profitMicro, @reason, created_at, opened_at, @closedAt, id
       FROM orders WHERE id = @parentId AND status = ${OPEN}`,
    ),
    shrink: db.prepare(
      `UPDATE orders SET lots = @lots, units = @units, margin_micro = @marginMicro,
         fee_micro = @feeMicro
       WHERE id = @id AND status = ${OPEN}`,
    ),
    setStopLoss: db.prepare(
      `UPDATE orders SET stop_loss = @stopLoss WHERE id = @id AND status = ${OPEN}`,
    ),
    setTrail: db.prepare(
      `UPDATE orders SET trail_distance = @trailDistance, trail_activation = @trailActivation,
         break_even = @breakEven
       WHERE id = @id AND status IN ${LIVE}`,
    ),
    fill: db.prepare(
      `UPDATE orders SET status = ${OPEN}, open_price = @openPrice, margin_micro = @marginMicro,
         fee_micro = @feeMicro, opened_at = @openedAt
       WHERE id = @id AND status = ${PENDING}`,
    ),
    close: db.prepare(
      `UPDATE orders SET status = ${CLOSED}, close_price = @closePrice, profit_micro = @profitMicro,
         close_reason = @reason, closed_at = @closedAt
       WHERE id = @id AND status = ${OPEN}`,
    ),
    cancel: db.prepare(
      `UPDATE orders SET status = ${CANCELLED}, close_reason = @reason, closed_at = @closedAt
       WHERE id = @id AND status = ${PENDING}`,
    ),
    setStops: db.prepare(
      `UPDATE orders SET take_profit = @takeProfit, stop_loss = @stopLoss
       WHERE id = @id AND status IN ${LIVE}`,
    ),
  };
}

function prepareAll(db: DB) {
  return {
    ...prepareTools(db),
    user: db.prepare(
      "SELECT is_demo, balance_micro, lock_balance_micro FROM users WHERE id = @userId",
    ),
    balance: db.prepare("SELECT balance_micro FROM users WHERE id = @userId"),
    // Positional parameters and no RETURNING: the hot path's insert (one per market order) binds
    // about a third faster than by name with the id read back (lastInsertRowid is the id on both
    // stores: sql-dialect.ts adds PostgreSQL's RETURNING id).
    insertOrder: db.prepare(
      `INSERT INTO orders (${ORDER_COLUMNS.join(", ")}) VALUES ${ORDER_TUPLE}`,
    ),
    insertOrderWithId: db.prepare(
      `INSERT INTO orders (id, user_id, instrument_id, order_type, status, pending_kind, lots,
         units, leverage, origin_price, open_price, take_profit, stop_loss, margin_micro, fee_micro,
         created_at, opened_at, trail_distance, trail_activation, break_even, expires_at)
       VALUES (@id, @userId, @instrumentId, @side, @status, @pendingKind, @lots, @units,
         @leverage, @originPrice, @openPrice, @takeProfit, @stopLoss, @marginMicro, @feeMicro,
         @createdAt, @openedAt, @trailDistance, @trailActivation, @breakEven, @expiresAt)`,
    ),
    orderById: db.prepare("SELECT * FROM orders WHERE id = @id"),
    liveOrders: db.prepare(`SELECT * FROM orders WHERE status IN ${LIVE} ORDER BY id`),
    listOrders: db.prepare(
      `${LISTED} WHERE o.user_id = @userId AND o.status = @status
       ORDER BY o.id DESC LIMIT @limit OFFSET @offset`,
    ),
    listHistory: db.prepare(
      `${LISTED} WHERE o.user_id = @userId AND o.status IN ${HISTORY}
       ORDER BY COALESCE(o.closed_at, o.created_at) DESC, o.id DESC LIMIT @limit OFFSET @offset`,
    ),
    countOrders: db.prepare(
      "SELECT COUNT(*) AS n FROM orders WHERE user_id = @userId AND status = @status",
    ),
    countHistory: db.prepare(
      `SELECT COUNT(*) AS n, COALESCE(SUM(profit_micro), 0) AS p
       FROM orders WHERE user_id = @userId AND status IN ${HISTORY}`,
    ),
    tradeSettings: db.prepare(TRADE_SETTINGS),
    instrumentSpec: db.prepare(
      `SELECT id, code, show_code, quote_currency, price_precision, pip, min_lots, cont_num,
         margin_mode, multiples, fee_rate, enabled, session
       FROM instruments WHERE id = @id`,
    ),
  };
}

type Statements = ReturnType<typeof prepareAll>;
const prepared = new WeakMap<DB, Statements>();

/** The statements of a store, prepared on first use. */
function st(db: DB): Statements {
  let s = prepared.get(db);
  if (!s) prepared.set(db, (s = prepareAll(db)));
  return s;
}

// ---------------------------------------------------------------- accounts (read only)

export interface UserFigures {
  is_demo: number;
  balance_micro: number;
  lock_balance_micro: number;
}

/** The user's demo flag, balance and lock, or undefined when there is no such user. */
export function readUser(db: DB, q: { userId: number }): UserFigures | undefined {
  return st(db).user.get(q) as UserFigures | undefined;
}

/** The user's balance (micro-USD), or null when there is no such user. */
export function readBalance(db: DB, q: { userId: number }): number | null {
  const r = st(db).balance.get(q) as { balance_micro: number } | undefined;
  return r ? r.balance_micro : null;
}

/** The stored balances of these users (micro-USD), one statement per ROWS_PER_STATEMENT users. */
export function readBalances(db: DB, userIds: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const part of chunked(userIds)) {
    const rows = prepareOnce(
      db,
      `SELECT id, balance_micro FROM users WHERE id IN (${inList(part.length)})`,
    ).all(part) as { id: number; balance_micro: number }[];
    for (const r of rows) out.set(Number(r.id), r.balance_micro);
  }
  return out;
}

// ---------------------------------------------------------------- orders

export interface NewOrder {
  userId: number;
  instrumentId: number;
  /** 1 buy, 2 sell. */
  side: number;
  status: typeof PENDING | typeof OPEN;
  pendingKind: PendingKind | null;
  /** Exact decimal text. */
  lots: string;
  units: string;
  leverage: number;
  originPrice: number;
  openPrice: number | null;
  takeProfit: number | null;
  stopLoss: number | null;
  marginMicro: number;
  feeMicro: number;
  createdAt: number;
  openedAt: number | null;
  /** Trailing stop and break-even distances; null: not set. */
  trailDistance: number | null;
  trailActivation: number | null;
  breakEven: number | null;
  /** A pending order's expiry (epoch ms); null: until cancelled. */
  expiresAt: number | null;
}

/**
 * Whether a write on one order the engine holds live changed it. Where writes wait (PostgreSQL's
 * batch) its answer is not waited for: the leader holds every live order as stored (it is their
 * one writer), so the write must change exactly that row; that is checked when it runs, and
 * otherwise fails the batch (expectChanges) instead of answering here.
 */
function changedOne(db: DB, r: RunResult, message: string): boolean {
  if (!db.writesWait) return r.changes === 1;
  expectChanges(r, 1, message);
  return true;
}

/** Stores a new pending or open order; returns its id. */
export function insertOrder(db: DB, o: NewOrder): number {
  // Inside a batch on PostgreSQL the id is taken ahead, and the INSERT waits to go with the others.
  const id = db.nextId?.("orders");
  if (id === undefined) return Number(st(db).insertOrder.run(orderValues(o)).lastInsertRowid);
  st(db).insertOrderWithId.run({ ...o, id });
  return id;
}

const ORDER_COLUMNS = [
  "user_id",
  "instrument_id",
  "order_type",
  "status",
  "pending_kind",
  "lots",
  "units",
  "leverage",
  "origin_price",
  "open_price",
  "take_profit",
  "stop_loss",
  "margin_micro",
  "fee_micro",
  "created_at",
  "opened_at",
  "trail_distance",
  "trail_activation",
  "break_even",
  "expires_at",
];
/** One order's tuple of parameters in a multi-row INSERT. */
const ORDER_TUPLE = `(${ORDER_COLUMNS.map(() => "?").join(", ")})`;

/** The values of a NewOrder in the order of ORDER_COLUMNS. */
const orderValues = (o: NewOrder): unknown[] => [
  o.userId,
  o.instrumentId,
  o.side,
  o.status,
  o.pendingKind,
  o.lots,
  o.units,
  o.leverage,
  o.originPrice,
  o.openPrice,
  o.takeProfit,
  o.stopLoss,
  o.marginMicro,
  o.feeMicro,
  o.createdAt,
  o.openedAt,
  o.trailDistance,
  o.trailActivation,
  o.breakEven,
  o.expiresAt,
];

/**
 * Stores new orders of distinct users, one INSERT per ROWS_PER_STATEMENT orders; returns each
 * user's new order id (the ids are read back by user: RETURNING's row order is not promised).
 * `ahead`: ids taken from the store's sequence for them (nextIds), at least one per order.
 */
export function insertOrders(
  db: DB,
  os: readonly NewOrder[],
  ahead?: readonly number[],
): Map<number, number> {
  const ids = new Map<number, number>();
  // Inside a batch on PostgreSQL the ids are taken ahead, and the INSERTs wait to go with the others.
  const taken = os.length > 0 ? (ahead ?? db.nextIds?.("orders", os.length)) : undefined;
  if (taken) {
    assert(taken.length >= os.length, "an id taken ahead for every new order");
    os.forEach((o, k) => ids.set(o.userId, taken[k]));
    for (const part of chunked(os))
      prepareOnce(
        db,
        `INSERT INTO orders (id, ${ORDER_COLUMNS.join(", ")})
           VALUES ${tuples(part.length, `(?, ${ORDER_TUPLE.slice(1)}`)}`,
      ).run(part.flatMap((o) => [ids.get(o.userId), ...orderValues(o)]));
    return ids;
  }
  for (const part of chunked(os)) {
    const rows = prepareOnce(
      db,
      `INSERT INTO orders (${ORDER_COLUMNS.join(", ")})
         VALUES ${tuples(part.length, ORDER_TUPLE)} RETURNING id, user_id`,
    ).all(part.flatMap(orderValues)) as { id: number; user_id: number }[];
    for (const r of rows) ids.set(Number(r.user_id), Number(r.id));
  }
  return ids;
}

/** Fills a pending order; true when the stored order was pending (and so is now open). */
export function fillOrder(
  db: DB,
  f: { id: number; openPrice: number; marginMicro: number; feeMicro: number; openedAt: number },
): boolean {
  return changedOne(
    db,
    st(db).fill.run(f),
    `order ${f.id} held pending is not pending in the store`,
  );
}

/** Closes an open order with its realised profit; true when the stored order was open. */
export function closeOrder(
  db: DB,
  c: { id: number; closePrice: number; profitMicro: number; reason: CloseReason; closedAt: number },
): boolean {
  return changedOne(db, st(db).close.run(c), `order ${c.id} held open is not open in the store`);
}

/** An open order's close: price, realised profit, reason and time. */
export interface OrderClose {
  id: number;
  closePrice: number;
  profitMicro: number;
  reason: CloseReason;
  closedAt: number;
}

/**
 * Closes open orders as closeOrder does; returns the ids of those that were open (and so are now
 * closed). SQLite: the prepared single-row UPDATE each (its UPDATE … FROM (VALUES …) walks the
 * whole orders table for every statement, as setStopLosses found: a burst of 100 closes took
 * tens of milliseconds). PostgreSQL: one UPDATE … FROM (VALUES …) per ROWS_PER_STATEMENT orders,
 * one round trip; the values are cast, since PostgreSQL types a parameter in a VALUES list as text
 * otherwise.
 */
export function closeOrders(db: DB, cs: readonly OrderClose[]): Set<number> {
  const closed = new Set<number>();
  if (db.dialect === "sqlite") {
    const one = st(db).close;
    for (const c of cs) if (one.run(c).changes === 1) closed.add(c.id);
    return closed;
  }
  const row =
    "(CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT))";
  const sql = (n: number, returning: string) =>
    `UPDATE orders SET status = ${CLOSED}, close_price = v.column2, profit_micro = v.column3,
       close_reason = v.column4, closed_at = v.column5
     FROM (VALUES ${tuples(n, row)}) AS v
     WHERE orders.id = v.column1 AND orders.status = ${OPEN}${returning}`;
  for (const part of chunked(cs)) {
    const values = part.flatMap((c) => [c.id, c.closePrice, c.profitMicro, c.reason, c.closedAt]);
    if (db.writesWait) {
      // As changedOne: every order closed is held open by the leader, so each must change.
      expectChanges(
        prepareOnce(db, sql(part.length, "")).run(values),
        part.length,
        "an order held open is not open in the store",
      );
      for (const c of part) closed.add(c.id);
      continue;
    }
    const rows = prepareOnce(db, sql(part.length, " RETURNING orders.id")).all(values) as {
      id: number;
    }[];
    for (const r of rows) closed.add(Number(r.id));
  }
  return closed;
}

/** Cancels a pending order; true when the stored order was pending. */
export function cancelOrder(
  db: DB,
  c: { id: number; reason: CloseReason; closedAt: number },
): boolean {
  return changedOne(
    db,
    st(db).cancel.run(c),
    `order ${c.id} held pending is not pending in the store`,
  );
}

/** Sets (null: clears) take-profit and stop-loss of a live order; true when it was live. */
export function setOrderStops(
  db: DB,
  s: { id: number; takeProfit: number | null; stopLoss: number | null },
): boolean {
  return changedOne(db, st(db).setStops.run(s), `order ${s.id} held live is not live in the store`);
}

/** A part of an open position closed (partial close): its lots, units, share of margin and fee, close. */
export interface PartClose {
  parentId: number;
  lots: string;
  units: string;
  marginMicro: number;
  feeMicro: number;
  closePrice: number;
  profitMicro: number;
  reason: CloseReason;
  closedAt: number;
}

/**
 * Stores the closed part of an open position as a closed order of its own (parent_id the
 * position's), copied from the position's row; returns its id, or null when the position is not
 * open in the store.
 */
export function insertPart(db: DB, c: PartClose): number | null {
  const id = db.nextId?.("orders");
  if (id === undefined) {
    const r = st(db).insertPart.get(c) as { id: number } | undefined;
    return r ? Number(r.id) : null;
  }
  const r = st(db).insertPartWithId.run({ ...c, id });
  return changedOne(db, r, `order ${c.parentId} held open is not open in the store`) ? id : null;
}

/** The new size of an open position after a partial close; true when it was open. */
export function shrinkOrder(
  db: DB,
  s: { id: number; lots: string; units: string; marginMicro: number; feeMicro: number },
): boolean {
  return changedOne(db, st(db).shrink.run(s), `order ${s.id} held open is not open in the store`);
}

/** Sets (null: clears) the trailing stop and break-even of a live order; true when it was live. */
export function setOrderTrail(
  db: DB,
  t: {
    id: number;
    trailDistance: number | null;
    trailActivation: number | null;
    breakEven: number | null;
  },
): boolean {
  return changedOne(db, st(db).setTrail.run(t), `order ${t.id} held live is not live in the store`);
}

/**
 * The stops the trailing pass moved; an order no longer open is left as it is (it closed after the
 * tick that moved it). SQLite: one prepared single-row UPDATE each (its UPDATE … FROM (VALUES …)
 * walked the whole orders table for every statement: 43 µs a row against 3); PostgreSQL: one
 * UPDATE … FROM (VALUES …) per ROWS_PER_STATEMENT orders (one round trip, a hash join).
 */
export function setStopLosses(db: DB, ss: readonly { id: number; stopLoss: number }[]): void {
  if (db.dialect === "sqlite") {
    const one = st(db).setStopLoss;
    for (const s of ss) one.run(s);
    return;
  }
  const row = "(CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION))";
  for (const part of chunked(ss))
    prepareOnce(
      db,
      `UPDATE orders SET stop_loss = v.column2
       FROM (VALUES ${tuples(part.length, row)}) AS v
       WHERE orders.id = v.column1 AND orders.status = ${OPEN}`,
    ).run(part.flatMap((s) => [s.id, s.stopLoss]));
}

export function orderById(db: DB, q: { id: number }): OrderRow | undefined {
  return st(db).orderById.get(q) as OrderRow | undefined;
}

/** Every pending and open order, oldest first (what the engine loads on start). */
export function liveOrders(db: DB): OrderRow[] {
  return st(db).liveOrders.all() as OrderRow[];
}

// ---------------------------------------------------------------- my_deal

export interface DealPage {
  rows: ListedOrderRow[];
  total: number;
  /** History: the realised profit of all of them (micro-USD); 0 for the other tabs. */
  historyProfitMicro: number;
}

/**
 * PAGE_SIZE rows from `offset` of the user's orders of `status` (3: closed and cancelled), newest
 * first, their total count, and for history their realised profit.
 */
export function dealPage(
  db: DB,
  q: { userId: number; status: OrderTab; offset: number },
): DealPage {
  const s = st(db);
  const page = { userId: q.userId, limit: PAGE_SIZE, offset: q.offset };
  if (q.status === ORDER_TAB.HISTORY) {
    const rows = s.listHistory.all(page) as ListedOrderRow[];
    const c = s.countHistory.get({ userId: q.userId }) as { n: number; p: number };
    return { rows, total: c.n, historyProfitMicro: c.p };
  }
  const of = { userId: q.userId, status: q.status };
  const rows = s.listOrders.all({ ...page, status: q.status }) as ListedOrderRow[];
  const total = (s.countOrders.get(of) as { n: number }).n;
  return { rows, total, historyProfitMicro: 0 };
}

// ---------------------------------------------------------------- settings and instruments

/** The stored values of TRADE_SETTING_KEYS, by key (a missing key is absent). */
export function readTradeSettings(db: DB): Map<string, string> {
  return settingsMap(st(db).tradeSettings.all() as SettingRow[]);
}

/** readTradeSettings without holding the event loop (read-later.ts: a read connection). */
export async function readTradeSettingsLater(db: DB): Promise<Map<string, string>> {
  return settingsMap((await allLater(db, TRADE_SETTINGS)) as SettingRow[]);
}

type SettingRow = { key: string; value: string };
const settingsMap = (rows: SettingRow[]) => new Map(rows.map((r) => [r.key, r.value]));

/** The instruments row of `id` as the engine reads it, or undefined. */
export function readInstrumentSpec(db: DB, q: { id: number }): InstrumentSpecRow | undefined {
  return st(db).instrumentSpec.get(q) as InstrumentSpecRow | undefined;
}
