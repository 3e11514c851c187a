/**
 * The follow module's SQL: the strategy traders (their accounts and strategy_traders rows), the
 * instruments they trade, and the ranking's sums of their closed positions.
 */
import { ORDER_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { newInviteCode, newUid } from "../identity/store.js";
import { RANK_WINDOW_MS, type TraderTotals } from "./stats.js";

export interface TraderRow {
  user_id: number;
  name: string;
  style: string;
  start_capital_micro: number;
}

/** The user id of the strategy trader called `name`, or undefined. */
export function traderIdByName(db: DB, name: string): number | undefined {
  const row = db.prepare("SELECT user_id FROM strategy_traders WHERE name = ?").get(name) as
    { user_id: number } | undefined;
  return row?.user_id;
}

/** Creates a strategy trader's account (no e-mail, phone or password: it cannot sign in); its id. */
export function insertTraderUser(db: DB, createdAt: number): number {
  const r = db
    .prepare("INSERT INTO users (uid, invite_code, is_demo, created_at) VALUES (?, ?, 0, ?)")
    .run(newUid(db), newInviteCode(db), createdAt);
  return Number(r.lastInsertRowid);
}

export function insertTrader(
  db: DB,
  t: { userId: number; name: string; style: string; startCapitalMicro: number; createdAt: number },
): void {
  db.prepare(
    "INSERT INTO strategy_traders (user_id, name, style, start_capital_micro, created_at) VALUES (@userId, @name, @style, @startCapitalMicro, @createdAt)",
  ).run(t);
}

/** Every instrument's id and price precision, by code. */
export function instrumentSpecs(db: DB): { id: number; code: string; price_precision: number }[] {
  return db.prepare("SELECT id, code, price_precision FROM instruments").all() as {
    id: number;
    code: string;
    price_precision: number;
  }[];
}

export function traders(db: DB): TraderRow[] {
  return db
    .prepare(
      "SELECT user_id, name, style, start_capital_micro FROM strategy_traders WHERE hidden = 0 AND stopped_at IS NULL ORDER BY user_id",
    )
    .all() as TraderRow[];
}

const CLOSED = `FROM orders o WHERE o.user_id = ? AND o.status = ${ORDER_STATUS.CLOSED}`;
const NET = "(COALESCE(o.profit_micro, 0) - o.fee_micro)";

/** The sums of `userId`'s closed positions for the window ending at `nowMs`. */
export function totalsOf(db: DB, userId: number, nowMs: number): TraderTotals {
  const from = nowMs - RANK_WINDOW_MS;
  const w = db
    .prepare(
      `SELECT COALESCE(SUM(${NET}), 0) AS net, COUNT(*) AS n, COALESCE(SUM(CASE WHEN ${NET} > 0 THEN 1 ELSE 0 END), 0) AS wins
       ${CLOSED} AND o.closed_at > ? AND o.closed_at <= ?`,
    )
    .get(userId, from, nowMs) as { net: number; n: number; wins: number };
  const b = db
    .prepare(`SELECT COALESCE(SUM(${NET}), 0) AS net ${CLOSED} AND o.closed_at <= ?`)
    .get(userId, from) as { net: number };
  const total = db
    .prepare(`SELECT COUNT(*) AS n ${CLOSED} AND o.closed_at <= ?`)
    .get(userId, nowMs) as { n: number };
  const mostUsed = (where: string, ...args: number[]) =>
    db
      .prepare(
        `SELECT o.leverage AS v, COUNT(*) AS c ${CLOSED} ${where} GROUP BY o.leverage ORDER BY c DESC, v DESC LIMIT 1`,
      )
      .get(userId, ...args) as { v: number } | undefined;
  const multiple =
    mostUsed("AND o.closed_at > ? AND o.closed_at <= ?", from, nowMs) ??
    mostUsed("AND o.closed_at <= ?", nowMs);
  const code = db
    .prepare(
      `SELECT i.show_code AS v, COUNT(*) AS c, MAX(o.closed_at) AS last
       ${CLOSED.replace("FROM orders o", "FROM orders o JOIN instruments i ON i.id = o.instrument_id")}
       AND o.closed_at > ? AND o.closed_at <= ? GROUP BY o.instrument_id, i.show_code ORDER BY c DESC, last DESC, o.instrument_id DESC LIMIT 1`,
    )
    .get(userId, from, nowMs) as { v: string } | undefined;
  return {
    windowNetMicro: w.net,
    windowCount: w.n,
    windowWins: w.wins,
    beforeNetMicro: b.net,
    totalCount: total.n,
    multiple: multiple?.v ?? null,
    code: code?.v ?? null,
  };
}
