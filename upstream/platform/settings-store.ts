/** The `settings` table (migration 001): one text value per key. */
import type { DB } from "./db.js";

function prepare(db: DB) {
  return {
    read: db.prepare("SELECT value FROM settings WHERE key = @key"),
    write: db.prepare(
      "INSERT INTO settings (key, value) VALUES (@key, @value) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** The stored value of a setting; undefined when the key has no row. */
export function readSetting(db: DB, q: { key: string }): string | undefined {
  const row = stmts(db).read.get(q) as { value: string } | undefined;
  return row?.value;
}

/** Stores a setting's value, replacing the one stored. */
export function writeSetting(db: DB, s: { key: string; value: string }): void {
  stmts(db).write.run(s);
}
