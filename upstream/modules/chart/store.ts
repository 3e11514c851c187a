/** The `chart_settings` table (migration 042): one row per user who saved a chart choice. */
import type { DB } from "../../platform/db.js";

function prepare(db: DB) {
  return {
    read: db.prepare("SELECT fields FROM chart_settings WHERE user_id = ?"),
    write: db.prepare(
      `INSERT INTO chart_settings (user_id, fields, updated_at) VALUES (@userId, @fields, @at)
       ON CONFLICT (user_id) DO UPDATE SET fields = excluded.fields, updated_at = excluded.updated_at`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** A user's saved choice as its flat fields in a query string, or null when none is saved. */
export function chartFieldsOf(db: DB, userId: number): string | null {
  const row = stmts(db).read.get(userId) as { fields: string } | undefined;
  return row ? row.fields : null;
}

/** Saves a user's choice (replacing the one before). */
export function writeChartFields(db: DB, q: { userId: number; fields: string; at: number }): void {
  stmts(db).write.run(q);
}
