/**
 * The SQL of providers' daily figures (table provider_daily: the risk score and the ranking's
 * returns), favourites (provider_favourites) and the risk disclosure (risk_disclosures), migration
 * 043 (decision 0040).
 */
import { ORDER_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { DAY_MS } from "./stats.js";

const NET = "(COALESCE(o.profit_micro, 0) - o.fee_micro)";

/**
 * The net (profit after fee, micro-USD) of a user's positions closed over (afterMs, uptoMs], per
 * UTC day index, oldest first: the daily returns of the risk score and a provider's monthly table.
 */
export function closedNetsByDay(
  db: DB,
  userId: number,
  afterMs: number,
  uptoMs: number,
): { day: number; net: number }[] {
  return (
    db
      .prepare(
        `SELECT o.closed_at / ${DAY_MS} AS day, SUM(${NET}) AS net FROM orders o
         WHERE o.user_id = ? AND o.status = ${ORDER_STATUS.CLOSED}
           AND o.closed_at > ? AND o.closed_at <= ?
         GROUP BY o.closed_at / ${DAY_MS} ORDER BY 1`,
      )
      .all(userId, afterMs, uptoMs) as { day: number; net: number }[]
  ).map((r) => ({ day: Number(r.day), net: Number(r.net) }));
}

/** A provider's figures of one day, as stored. */
export interface DailyFigures {
  user_id: number;
  day: number;
  risk_score: number;
  volatility: number;
  leverage: number;
  concentration: number;
  return_1m: number;
  return_3m: number;
  return_6m: number;
  return_12m: number;
  max_drawdown: number;
  /** Category ids, as JSON text. */
  categories: string;
  computed_at: number;
  notified_at: number | null;
}

const COLUMNS = `user_id, day, risk_score, volatility, leverage, concentration, return_1m, return_3m,
  return_6m, return_12m, max_drawdown, categories, computed_at, notified_at`;

const asFigures = (r: DailyFigures): DailyFigures => ({
  ...r,
  user_id: Number(r.user_id),
  day: Number(r.day),
  risk_score: Number(r.risk_score),
  computed_at: Number(r.computed_at),
  notified_at: r.notified_at === null ? null : Number(r.notified_at),
});

/** Every provider's latest daily figures, by provider id. */
export function latestDaily(db: DB): Map<number, DailyFigures> {
  const rows = db
    .prepare(
      `SELECT ${COLUMNS} FROM provider_daily d
       WHERE d.day = (SELECT MAX(day) FROM provider_daily x WHERE x.user_id = d.user_id)`,
    )
    .all() as DailyFigures[];
  return new Map(rows.map((r) => [Number(r.user_id), asFigures(r)]));
}

/** A provider's latest daily figures, or undefined before the first computation. */
export function latestDailyOf(db: DB, userId: number): DailyFigures | undefined {
  const r = db
    .prepare(`SELECT ${COLUMNS} FROM provider_daily WHERE user_id = ? ORDER BY day DESC LIMIT 1`)
    .get(userId) as DailyFigures | undefined;
  return r && asFigures(r);
}

/** Whether a provider's figures of `day` were computed. */
export function hasDaily(db: DB, userId: number, day: number): boolean {
  return db.prepare("SELECT 1 FROM provider_daily WHERE user_id = ? AND day = ?").get(userId, day)
    ? true
    : false;
}

export function insertDaily(db: DB, f: Omit<DailyFigures, "notified_at">): void {
  db.prepare(
    `INSERT INTO provider_daily (${COLUMNS}) VALUES (@user_id, @day, @risk_score, @volatility,
       @leverage, @concentration, @return_1m, @return_3m, @return_6m, @return_12m, @max_drawdown,
       @categories, @computed_at, NULL)
     ON CONFLICT (user_id, day) DO NOTHING`,
  ).run(f);
}

export function markNotified(db: DB, userId: number, day: number, at: number): void {
  db.prepare("UPDATE provider_daily SET notified_at = ? WHERE user_id = ? AND day = ?").run(
    at,
    userId,
    day,
  );
}

/** The users following a provider: owners of its copies not stopped. */
export function followersOf(db: DB, providerId: number): number[] {
  return (
    db
      .prepare(
        "SELECT DISTINCT user_id FROM copies WHERE provider_id = ? AND status <> 'stopped' ORDER BY user_id",
      )
      .all(providerId) as { user_id: number }[]
  ).map((r) => Number(r.user_id));
}

/** Every instrument's category id, by instrument id. */
export function instrumentCategories(db: DB): Map<number, number> {
  return new Map(
    (
      db.prepare("SELECT id, category_id FROM instruments").all() as {
        id: number;
        category_id: number;
      }[]
    ).map((r) => [Number(r.id), Number(r.category_id)]),
  );
}

/** When each provider began (strategy_traders.created_at), by id. */
export function providerStarts(db: DB): Map<number, number> {
  return new Map(
    (
      db.prepare("SELECT user_id, created_at FROM strategy_traders").all() as {
        user_id: number;
        created_at: number;
      }[]
    ).map((r) => [Number(r.user_id), Number(r.created_at)]),
  );
}

/** A provider as its daily figures need it. */
export interface ProviderStart {
  user_id: number;
  start_capital_micro: number;
  created_at: number;
}

/** Every provider (listed or not: a hidden one's followers keep their copies), by id. */
export function providerRows(db: DB): (ProviderStart & { name: string })[] {
  return (
    db
      .prepare(
        "SELECT user_id, name, start_capital_micro, created_at FROM strategy_traders ORDER BY user_id",
      )
      .all() as (ProviderStart & { name: string })[]
  ).map((r) => ({
    ...r,
    user_id: Number(r.user_id),
    start_capital_micro: Number(r.start_capital_micro),
    created_at: Number(r.created_at),
  }));
}

// ---------------------------------------------------------------- favourites

export function favouritesOf(db: DB, userId: number): number[] {
  return (
    db
      .prepare(
        "SELECT provider_id FROM provider_favourites WHERE user_id = ? ORDER BY created_at, provider_id",
      )
      .all(userId) as { provider_id: number }[]
  ).map((r) => Number(r.provider_id));
}

export function addFavourite(db: DB, userId: number, providerId: number, at: number): void {
  db.prepare(
    `INSERT INTO provider_favourites (user_id, provider_id, created_at) VALUES (?, ?, ?)
     ON CONFLICT (user_id, provider_id) DO NOTHING`,
  ).run(userId, providerId, at);
}

export function removeFavourite(db: DB, userId: number, providerId: number): void {
  db.prepare("DELETE FROM provider_favourites WHERE user_id = ? AND provider_id = ?").run(
    userId,
    providerId,
  );
}

// ---------------------------------------------------------------- the risk disclosure

/**
 * Of the real retail accounts with a realised result over (afterMs, uptoMs], how many, and how
 * many lost money. An account's result is the sum of its ledger rows of kind realised_profit, fee
 * and protection (deposits, withdrawals, adjustments and copy transfers are other kinds, so they
 * never count), its copy accounts' rows counted as its own; demo accounts and the broker's strategy
 * traders are not retail accounts.
 */
export function losingAccounts(
  db: DB,
  afterMs: number,
  uptoMs: number,
): { accounts: number; losing: number } {
  const r = db
    .prepare(
      `SELECT COUNT(*) AS accounts, COALESCE(SUM(CASE WHEN t.result < 0 THEN 1 ELSE 0 END), 0) AS losing
       FROM (
         SELECT COALESCE(a.copy_owner_id, a.id) AS owner, SUM(l.amount_micro) AS result
         FROM ledger l JOIN users a ON a.id = l.user_id
         WHERE l.kind IN ('realised_profit', 'fee', 'protection')
           AND l.created_at > ? AND l.created_at <= ?
         GROUP BY COALESCE(a.copy_owner_id, a.id)
       ) t JOIN users o ON o.id = t.owner
       WHERE o.is_demo = 0
         AND NOT EXISTS (SELECT 1 FROM strategy_traders s WHERE s.user_id = o.id AND s.style <> 'user')`,
    )
    .get(afterMs, uptoMs) as { accounts: number; losing: number };
  return { accounts: Number(r.accounts), losing: Number(r.losing) };
}

export interface DisclosureRow {
  day: number;
  accounts: number;
  losing: number;
  computed_at: number;
}

export function latestDisclosure(db: DB): DisclosureRow | undefined {
  const r = db
    .prepare(
      "SELECT day, accounts, losing, computed_at FROM risk_disclosures ORDER BY day DESC LIMIT 1",
    )
    .get() as DisclosureRow | undefined;
  return (
    r && {
      day: Number(r.day),
      accounts: Number(r.accounts),
      losing: Number(r.losing),
      computed_at: Number(r.computed_at),
    }
  );
}

export function insertDisclosure(db: DB, r: DisclosureRow): void {
  db.prepare(
    `INSERT INTO risk_disclosures (day, accounts, losing, computed_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (day) DO NOTHING`,
  ).run(r.day, r.accounts, r.losing, r.computed_at);
}
