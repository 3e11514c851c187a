/**
 * The `outbox` table (migration 003): every message written before its delivery, with its
 * recipient, its code (kept only while the dev outbox is on) and its delivery status ('stored',
 * 'sent', 'failed').
 */
import type { DB } from "../db.js";

/** The latest code a recipient was sent. */
export interface OutboxCode {
  recipient: string;
  code: string;
  purpose: number;
  created_at: number;
}

function prepare(db: DB) {
  return {
    deleteOld: db.prepare(
      "DELETE FROM outbox WHERE created_at < @createdBefore AND status <> 'failed'",
    ),
    insert: db.prepare(
      `INSERT INTO outbox (channel, recipient, area_id, purpose, code, subject, body, status, created_at)
       VALUES (@channel, @recipient, @areaId, @purpose, @code, @subject, @body, 'stored', @createdAt)`,
    ),
    markSent: db.prepare("UPDATE outbox SET status = 'sent', sent_at = @sentAt WHERE id = @id"),
    markFailed: db.prepare("UPDATE outbox SET status = 'failed', error = @error WHERE id = @id"),
    latestTo: db.prepare(
      `SELECT recipient, code, purpose, created_at FROM outbox
       WHERE recipient = @recipient AND code IS NOT NULL ORDER BY id DESC LIMIT 1`,
    ),
    latestToDialled: db.prepare(
      `SELECT o.recipient, o.code, o.purpose, o.created_at FROM outbox o JOIN areas a ON a.id = o.area_id
       WHERE replace(a.global_code, '+', '') || o.recipient = @digits AND o.code IS NOT NULL ORDER BY o.id DESC LIMIT 1`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** Deletes the messages written before `createdBefore` (ms), except failed ones. */
export function deleteOldMessages(db: DB, q: { createdBefore: number }): void {
  stmts(db).deleteOld.run(q);
}

/** Writes a message with status 'stored'; returns its id. */
export function insertMessage(
  db: DB,
  m: {
    channel: string;
    recipient: string;
    areaId: number | null;
    purpose: number;
    code: string | null;
    subject: string | null;
    body: string;
    createdAt: number;
  },
): number {
  return Number(stmts(db).insert.run(m).lastInsertRowid);
}

/** Marks a message delivered. */
export function markMessageSent(db: DB, q: { id: number; sentAt: number }): void {
  stmts(db).markSent.run(q);
}

/** Marks a message failed, with the reason. */
export function markMessageFailed(db: DB, q: { id: number; error: string }): void {
  stmts(db).markFailed.run(q);
}

/** The latest code sent to a recipient as stored (e-mail in lower case, or mobile digits). */
export function latestCodeTo(db: DB, q: { recipient: string }): OutboxCode | undefined {
  return stmts(db).latestTo.get(q) as OutboxCode | undefined;
}

/** The latest code sent to a mobile number given as its area's dialling code followed by its digits. */
export function latestCodeToDialled(db: DB, q: { digits: string }): OutboxCode | undefined {
  return stmts(db).latestToDialled.get(q) as OutboxCode | undefined;
}
