/**
 * The follow module's SQL: the strategy traders (their accounts and strategy_traders rows), the
 * instruments they trade, and the sums of closed positions that the ranking, a provider's page and
 * a user's own statistics all read (closedGroups, closedNets).
 */
import { ORDER_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { newInviteCode, newUid } from "../identity/store.js";
import { RANK_WINDOW_MS, type ClosedTally, type TraderTotals } from "./stats.js";

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

/**
 * Sums of a trader's closed positions: Σ net, how many, how many with net > 0, and how many per
 * leverage and per instrument id. A checkpoint (checkpoints.ts) is these sums up to `uptoMs`.
 */
export interface ClosedSums {
  /** The sums cover the positions closed at or before this moment (ms); 0: none. */
  uptoMs: number;
  netMicro: number;
  count: number;
  wins: number;
  /** Positions closed per leverage ("100": 12). */
  leverages: Record<string, number>;
  /** Positions closed per instrument id ("3": 40). */
  instruments: Record<string, number>;
}
export type RankCheckpoint = ClosedSums;

const NONE: ClosedSums = {
  uptoMs: 0,
  netMicro: 0,
  count: 0,
  wins: 0,
  leverages: {},
  instruments: {},
};

/** One group of closedGroups: a leverage and an instrument, with the sums of its positions. */
export interface ClosedGroup {
  leverage: number;
  instrumentId: number;
  tally: ClosedTally;
}

interface GroupRow {
  v: number;
  instrument_id: number;
  c: number;
  wins: number;
  losses: number;
  net: number;
  win_net: number;
  loss_net: number;
  best: number | null;
  worst: number | null;
  held: number;
}

const orNull = (v: number | null) => (v === null ? null : Number(v));

/**
 * The sums (stats.ts ClosedTally) of a user's positions closed over (afterMs, uptoMs], per leverage
 * and instrument: the one query every reader of closed positions adds up (the ranking and its
 * checkpoints, a provider's page, a user's own statistics), over the orders_closed_by_user index.
 */
export function closedGroups(
  db: DB,
  userId: number,
  afterMs: number,
  uptoMs: number,
): ClosedGroup[] {
  const rows = db
    .prepare(
      `SELECT o.leverage AS v, o.instrument_id, COUNT(*) AS c,
         COALESCE(SUM(CASE WHEN ${NET} > 0 THEN 1 ELSE 0 END), 0) AS wins,
         COALESCE(SUM(CASE WHEN ${NET} < 0 THEN 1 ELSE 0 END), 0) AS losses,
         COALESCE(SUM(${NET}), 0) AS net,
         COALESCE(SUM(CASE WHEN ${NET} > 0 THEN ${NET} ELSE 0 END), 0) AS win_net,
         COALESCE(SUM(CASE WHEN ${NET} < 0 THEN ${NET} ELSE 0 END), 0) AS loss_net,
         MAX(${NET}) AS best, MIN(${NET}) AS worst,
         COALESCE(SUM(o.closed_at - COALESCE(o.opened_at, o.closed_at)), 0) AS held
       ${CLOSED} AND o.closed_at > ? AND o.closed_at <= ? GROUP BY o.leverage, o.instrument_id`,
    )
    .all(userId, afterMs, uptoMs) as GroupRow[];
  return rows.map((r) => ({
    leverage: Number(r.v),
    instrumentId: Number(r.instrument_id),
    tally: {
      count: Number(r.c),
      wins: Number(r.wins),
      losses: Number(r.losses),
      netMicro: Number(r.net),
      winNetMicro: Number(r.win_net),
      lossNetMicro: Number(r.loss_net),
      bestMicro: orNull(r.best),
      worstMicro: orNull(r.worst),
      heldMs: Number(r.held),
    },
  }));
}

/** `sums` plus the positions closed over (sums.uptoMs, uptoMs]: the only rows read. */
function addClosed(db: DB, userId: number, sums: ClosedSums, uptoMs: number): ClosedSums {
  const next = {
    ...sums,
    uptoMs,
    leverages: { ...sums.leverages },
    instruments: { ...sums.instruments },
  };
  const bump = (m: Record<string, number>, k: number, n: number) =>
    (m[String(k)] = (m[String(k)] ?? 0) + n);
  for (const g of closedGroups(db, userId, sums.uptoMs, uptoMs)) {
    next.netMicro += g.tally.netMicro;
    next.count += g.tally.count;
    next.wins += g.tally.wins;
    bump(next.leverages, g.leverage, g.tally.count);
    bump(next.instruments, g.instrumentId, g.tally.count);
  }
  return next;
}

/**
 * The (closed_at, net) of a user's latest `limit` closes, oldest first (a closed equity curve's
 * points: stats.ts closedCurve).
 */
export function closedNets(
  db: DB,
  userId: number,
  limit: number,
): { closed_at: number; net: number }[] {
  return (
    db
      .prepare(
        `SELECT o.closed_at, ${NET} AS net ${CLOSED}
         ORDER BY o.closed_at DESC, o.id DESC LIMIT ?`,
      )
      .all(userId, limit) as { closed_at: number; net: number }[]
  )
    .map((r) => ({ closed_at: Number(r.closed_at), net: Number(r.net) }))
    .reverse();
}

/** Every instrument's show code, by id. */
export function showCodes(db: DB): Map<number, string> {
  return new Map(
    (
      db.prepare("SELECT id, show_code FROM instruments").all() as {
        id: number;
        show_code: string;
      }[]
    ).map((r) => [Number(r.id), r.show_code]),
  );
}

/** A trader's ranking checkpoint (checkpoints.ts); the empty one (upto 0) when none was written. */
export function checkpointOf(db: DB, userId: number): RankCheckpoint {
  const row = db
    .prepare(
      `SELECT upto_ms, net_micro, closed_count, win_count, leverage_counts, instrument_counts
       FROM rank_checkpoints WHERE user_id = ?`,
    )
    .get(userId) as
    | {
        upto_ms: number;
        net_micro: number;
        closed_count: number;
        win_count: number;
        leverage_counts: string;
        instrument_counts: string;
      }
    | undefined;
  if (!row) return NONE;
  return {
    uptoMs: Number(row.upto_ms),
    netMicro: Number(row.net_micro),
    count: Number(row.closed_count),
    wins: Number(row.win_count),
    leverages: JSON.parse(row.leverage_counts) as Record<string, number>,
    instruments: JSON.parse(row.instrument_counts) as Record<string, number>,
  };
}

/**
 * Moves `userId`'s checkpoint to `uptoMs` by adding the positions closed since it; reads only
 * those. Nothing when the checkpoint is already there or later (upto_ms never goes back).
 */
export function advanceCheckpoint(db: DB, userId: number, uptoMs: number): boolean {
  const cp = checkpointOf(db, userId);
  if (uptoMs <= cp.uptoMs) return false;
  const next = addClosed(db, userId, cp, uptoMs);
  db.prepare(
    `INSERT INTO rank_checkpoints
       (user_id, upto_ms, net_micro, closed_count, win_count, leverage_counts, instrument_counts)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET upto_ms = excluded.upto_ms, net_micro = excluded.net_micro,
       closed_count = excluded.closed_count, win_count = excluded.win_count,
       leverage_counts = excluded.leverage_counts, instrument_counts = excluded.instrument_counts`,
  ).run(
    userId,
    uptoMs,
    next.netMicro,
    next.count,
    next.wins,
    JSON.stringify(next.leverages),
    JSON.stringify(next.instruments),
  );
  return true;
}

/**
 * The sums of `userId`'s positions closed at or before `atMs` (the latest moment a position can
 * have closed: every one): the checkpoint's, plus the positions closed after it. A checkpoint
 * later than `atMs` (a clock set back) is not used.
 */
export function closedUpTo(db: DB, userId: number, atMs = Number.MAX_SAFE_INTEGER): ClosedSums {
  const cp = checkpointOf(db, userId);
  return addClosed(db, userId, cp.uptoMs <= atMs ? cp : NONE, atMs);
}

/** Every strategy trader's id, listed or not (the checkpoints cover them all). */
export function traderIds(db: DB): number[] {
  return (
    db.prepare("SELECT user_id FROM strategy_traders ORDER BY user_id").all() as {
      user_id: number;
    }[]
  ).map((r) => Number(r.user_id));
}

/**
 * The sums of `userId`'s closed positions for the window ending at `nowMs`. Reads the positions
 * closed after the trader's checkpoint only (a bounded span: see checkpoints.ts).
 */
export function totalsOf(db: DB, userId: number, nowMs: number): TraderTotals {
  const from = nowMs - RANK_WINDOW_MS;
  const before = closedUpTo(db, userId, from);
  const inWindow = addClosed(db, userId, { ...NONE, uptoMs: from }, nowMs);
  const code = db
    .prepare(
      `SELECT i.show_code AS v, COUNT(*) AS c, MAX(o.closed_at) AS last
       ${CLOSED.replace("FROM orders o", "FROM orders o JOIN instruments i ON i.id = o.instrument_id")}
       AND o.closed_at > ? AND o.closed_at <= ? GROUP BY o.instrument_id, i.show_code ORDER BY c DESC, last DESC, o.instrument_id DESC LIMIT 1`,
    )
    .get(userId, from, nowMs) as { v: string } | undefined;
  const allLeverages = { ...before.leverages };
  for (const [v, c] of Object.entries(inWindow.leverages))
    allLeverages[v] = (allLeverages[v] ?? 0) + c;
  return {
    windowNetMicro: inWindow.netMicro,
    windowCount: inWindow.count,
    windowWins: inWindow.wins,
    beforeNetMicro: before.netMicro,
    totalCount: before.count + inWindow.count,
    multiple: mostUsed(inWindow.leverages) ?? mostUsed(allLeverages),
    code: code?.v ?? null,
  };
}

/** The leverage used most (ties: the higher); null when none. */
function mostUsed(counts: Record<string, number>): number | null {
  let best: number | null = null;
  for (const [key, c] of Object.entries(counts)) {
    const v = Number(key);
    const top = best === null ? 0 : counts[String(best)];
    if (c > 0 && (best === null || c > top || (c === top && v > best))) best = v;
  }
  return best;
}
