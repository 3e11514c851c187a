/**
 * The statements module's SQL: the positions a statement lists (the orders table as the engine
 * writes it, read only), who asked for the monthly statement e-mail, and which months' e-mails
 * the leader took on (statement_mails: one row per user and month, the once-only record).
 */
import { ORDER_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";

/** A closed position as a statement lists it. */
export interface StatementPositionRow {
  id: number;
  show_code: string;
  price_precision: number;
  order_type: number;
  lots: string;
  leverage: number;
  open_price: number | null;
  close_price: number | null;
  fee_micro: number;
  profit_micro: number | null;
  close_reason: string | null;
  opened_at: number | null;
  closed_at: number;
}

const CLOSED_IN_RANGE = `FROM orders o JOIN instruments i ON i.id = o.instrument_id
  WHERE o.user_id = @userId AND o.status = ${ORDER_STATUS.CLOSED}
    AND o.closed_at >= @fromMs AND o.closed_at < @toMs`;

/** A page of the user's positions closed in [fromMs, toMs), in the order they closed. */
export function closedPositionsBetween(
  db: DB,
  p: { userId: number; fromMs: number; toMs: number; limit: number; offset: number },
): StatementPositionRow[] {
  return db
    .prepare(
      `SELECT o.id, i.show_code, i.price_precision, o.order_type, o.lots, o.leverage, o.open_price,
         o.close_price, o.fee_micro, o.profit_micro, o.close_reason, o.opened_at, o.closed_at
       ${CLOSED_IN_RANGE} ORDER BY o.closed_at, o.id LIMIT @limit OFFSET @offset`,
    )
    .all(p) as StatementPositionRow[];
}

/** How many positions the user closed in [fromMs, toMs). */
export function closedPositionCount(
  db: DB,
  p: { userId: number; fromMs: number; toMs: number },
): number {
  return Number((db.prepare(`SELECT COUNT(*) AS n ${CLOSED_IN_RANGE}`).get(p) as { n: number }).n);
}

// ---------------------------------------------------------------- the monthly statement e-mail

export interface MailPrefRow {
  lang: string;
  created_at: number;
}

/** The user's request for the monthly statement e-mail, or undefined (not asked). */
export function mailPrefOf(db: DB, userId: number): MailPrefRow | undefined {
  return db
    .prepare("SELECT lang, created_at FROM statement_mail_prefs WHERE user_id = ?")
    .get(userId) as MailPrefRow | undefined;
}

/** Records the request (kept from when first asked; the language follows the latest request). */
export function saveMailPref(db: DB, p: { userId: number; lang: string; at: number }): void {
  db.prepare(
    `INSERT INTO statement_mail_prefs (user_id, lang, created_at) VALUES (@userId, @lang, @at)
     ON CONFLICT (user_id) DO UPDATE SET lang = excluded.lang`,
  ).run(p);
}

export function dropMailPref(db: DB, userId: number): void {
  db.prepare("DELETE FROM statement_mail_prefs WHERE user_id = ?").run(userId);
}

/** The latest month whose statement e-mail was sent to the user ("YYYY-MM"), or null. */
export function lastSentMonth(db: DB, userId: number): string | null {
  const row = db
    .prepare(
      "SELECT MAX(month) AS m FROM statement_mails WHERE user_id = ? AND sent_at IS NOT NULL",
    )
    .get(userId) as { m: string | null } | undefined;
  return row?.m ?? null;
}

/**
 * Up to `limit` users owed the statement of `month` and not yet taken on: they asked before the
 * month ended (`endMs`), their real account (not a demo's, nor a copy's) has an e-mail address and
 * existed before the month ended, and no row of statement_mails names them and the month.
 */
export function owedMonth(db: DB, p: { month: string; endMs: number; limit: number }): number[] {
  return (
    db
      .prepare(
        `SELECT u.id FROM statement_mail_prefs s JOIN users u ON u.id = s.user_id
         WHERE s.created_at < @endMs AND u.created_at < @endMs AND u.is_demo = 0
           AND u.copy_owner_id IS NULL AND u.email IS NOT NULL AND u.email <> ''
           AND NOT EXISTS (SELECT 1 FROM statement_mails m
                           WHERE m.user_id = u.id AND m.month = @month)
         ORDER BY u.id LIMIT @limit`,
      )
      .all(p) as { id: number }[]
  ).map((r) => Number(r.id));
}

/** Takes on the statement e-mail of (user, month), due at once; false when it already was. */
export function claimMonth(db: DB, p: { userId: number; month: string; at: number }): boolean {
  return (
    db
      .prepare(
        `INSERT INTO statement_mails (user_id, month, created_at, next_at)
         VALUES (@userId, @month, @at, @at) ON CONFLICT (user_id, month) DO NOTHING`,
      )
      .run(p).changes === 1
  );
}

/** A statement e-mail taken on and not yet sent, with where and in which language to send it. */
export interface DueMail {
  user_id: number;
  month: string;
  attempts: number;
  email: string | null;
  lang: string | null;
}

/** Up to `limit` statement e-mails due at `now` (not sent, not given up), oldest first. */
export function dueMails(db: DB, p: { now: number; limit: number }): DueMail[] {
  return (
    db
      .prepare(
        `SELECT m.user_id, m.month, m.attempts, u.email, s.lang
         FROM statement_mails m JOIN users u ON u.id = m.user_id
         LEFT JOIN statement_mail_prefs s ON s.user_id = m.user_id
         WHERE m.sent_at IS NULL AND m.failed_at IS NULL AND m.next_at <= @now
         ORDER BY m.next_at, m.user_id LIMIT @limit`,
      )
      .all(p) as DueMail[]
  ).map((r) => ({ ...r, user_id: Number(r.user_id), attempts: Number(r.attempts) }));
}

export function mailSent(db: DB, p: { userId: number; month: string; at: number }): void {
  db.prepare(
    "UPDATE statement_mails SET sent_at = @at, error = NULL WHERE user_id = @userId AND month = @month",
  ).run(p);
}

export function mailRetry(
  db: DB,
  p: { userId: number; month: string; nextAt: number; error: string },
): void {
  db.prepare(
    `UPDATE statement_mails SET attempts = attempts + 1, next_at = @nextAt, error = @error
     WHERE user_id = @userId AND month = @month`,
  ).run(p);
}

export function mailFailed(
  db: DB,
  p: { userId: number; month: string; at: number; error: string },
): void {
  db.prepare(
    `UPDATE statement_mails SET attempts = attempts + 1, failed_at = @at, error = @error
     WHERE user_id = @userId AND month = @month`,
  ).run(p);
}
