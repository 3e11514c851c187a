/** Sign-in throttling per account and client address: 5 failures within 15 minutes lock for 15 minutes. */
import type { DB } from "../../platform/db.js";

export const MAX_LOGIN_FAILS = 5;
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const LOGIN_LOCK_MS = 15 * 60_000;

/** Minutes left on a lock, or 0 when sign-in may be tried. */
export function loginLockedMinutes(db: DB, key: string, now = Date.now()): number {
  const row = db.prepare("SELECT locked_until FROM login_attempts WHERE key = ?").get(key) as
    { locked_until: number | null } | undefined;
  if (!row?.locked_until || row.locked_until <= now) return 0;
  return Math.max(1, Math.ceil((row.locked_until - now) / 60_000));
}

export function recordLoginFailure(db: DB, key: string, now = Date.now()): void {
  const row = db.prepare("SELECT fails, first_at FROM login_attempts WHERE key = ?").get(key) as
    { fails: number; first_at: number } | undefined;
  if (!row || row.first_at + LOGIN_WINDOW_MS <= now) {
    db.prepare(
      "INSERT INTO login_attempts (key, fails, first_at, locked_until) VALUES (?, 1, ?, NULL) ON CONFLICT(key) DO UPDATE SET fails = 1, first_at = excluded.first_at, locked_until = NULL",
    ).run(key, now);
    return;
  }
  const fails = row.fails + 1;
  db.prepare("UPDATE login_attempts SET fails = ?, locked_until = ? WHERE key = ?").run(
    fails,
    fails >= MAX_LOGIN_FAILS ? now + LOGIN_LOCK_MS : null,
    key,
  );
}

export function clearLoginFailures(db: DB, key: string): void {
  db.prepare("DELETE FROM login_attempts WHERE key = ?").run(key);
}
