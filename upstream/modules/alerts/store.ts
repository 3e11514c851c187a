/** The `price_alerts` table (migration 037). */
import type { DB } from "../../platform/db.js";

export interface AlertRow {
  id: number;
  user_id: number;
  instrument_id: number;
  code: string;
  condition: string;
  target: number;
  repeat_every: number;
  cooldown_s: number;
  expires_at: number | null;
  active: number;
  fired_at: number | null;
  created_at: number;
}

const COLUMNS = `a.id, a.user_id, a.instrument_id, i.code, a.condition, a.target, a.repeat_every,
  a.cooldown_s, a.expires_at, a.active, a.fired_at, a.created_at`;

function prepare(db: DB) {
  return {
    insert: db.prepare(
      `INSERT INTO price_alerts (user_id, instrument_id, condition, target, repeat_every, cooldown_s, expires_at, created_at)
       VALUES (@userId, @instrumentId, @condition, @target, @repeatEvery, @cooldownS, @expiresAt, @at)`,
    ),
    one: db.prepare(
      `SELECT ${COLUMNS} FROM price_alerts a JOIN instruments i ON i.id = a.instrument_id WHERE a.id = ?`,
    ),
    ofUser: db.prepare(
      `SELECT ${COLUMNS} FROM price_alerts a JOIN instruments i ON i.id = a.instrument_id
       WHERE a.user_id = ? ORDER BY a.active DESC, a.id DESC LIMIT 200`,
    ),
    active: db.prepare(
      `SELECT ${COLUMNS} FROM price_alerts a JOIN instruments i ON i.id = a.instrument_id
       WHERE a.active = 1 ORDER BY a.id`,
    ),
    activeCount: db.prepare(
      "SELECT COUNT(*) AS n FROM price_alerts WHERE user_id = ? AND active = 1",
    ),
    remove: db.prepare("DELETE FROM price_alerts WHERE id = @id AND user_id = @userId"),
    fired: db.prepare(
      `UPDATE price_alerts SET fired_at = @at, fired_count = fired_count + 1, active = @active
       WHERE id = @id AND active = 1`,
    ),
    end: db.prepare("UPDATE price_alerts SET active = 0 WHERE id = @id AND active = 1"),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

export function insertAlert(
  db: DB,
  a: {
    userId: number;
    instrumentId: number;
    condition: string;
    target: number;
    repeatEvery: number;
    cooldownS: number;
    expiresAt: number | null;
    at: number;
  },
): number {
  return Number(stmts(db).insert.run(a).lastInsertRowid);
}

export function alertById(db: DB, id: number): AlertRow | undefined {
  return stmts(db).one.get(id) as AlertRow | undefined;
}

export function alertsOfUser(db: DB, userId: number): AlertRow[] {
  return stmts(db).ofUser.all(userId) as AlertRow[];
}

export function activeAlerts(db: DB): AlertRow[] {
  return stmts(db).active.all() as AlertRow[];
}

export function activeAlertCount(db: DB, userId: number): number {
  return Number((stmts(db).activeCount.get(userId) as { n: number }).n);
}

/** Deletes one of a user's alerts; false when the user has no such alert. */
export function deleteAlert(db: DB, q: { id: number; userId: number }): boolean {
  return stmts(db).remove.run(q).changes === 1;
}

/** Records a firing (active 0 ends a one-off alert); false when it was no longer active. */
export function markAlertFired(db: DB, q: { id: number; at: number; active: number }): boolean {
  return stmts(db).fired.run(q).changes === 1;
}

/** Ends an alert (expired); false when it was no longer active. */
export function endAlert(db: DB, id: number): boolean {
  return stmts(db).end.run({ id }).changes === 1;
}
