/**
 * The account-safety tables (migration 035): user_two_factor (the sealed TOTP secret, whether it is
 * in force, the last accepted time step), user_backup_codes (hashes, each used once),
 * sign_in_challenges (sign-ins waiting for their second factor), user_devices (devices an account
 * signed in from), and the session list's reads of `tokens`.
 */
import type { DB } from "../../platform/db.js";

export interface TwoFactorRow {
  secret: string;
  enabled_at: number | null;
  last_step: number | null;
}

export interface ChallengeRow {
  user_id: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
  device: string | null;
}

export interface SessionRow {
  token_hash: string;
  ip: string | null;
  user_agent: string | null;
  created_at: number;
  used_at: number;
}

function prepare(db: DB) {
  return {
    twoFactor: db.prepare(
      "SELECT secret, enabled_at, last_step FROM user_two_factor WHERE user_id = ?",
    ),
    // A set-up replaces a waiting one, never one in force.
    pending: db.prepare(
      `INSERT INTO user_two_factor (user_id, secret, created_at, enabled_at, last_step)
       VALUES (@userId, @secret, @at, NULL, NULL)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at, last_step = NULL
       WHERE user_two_factor.enabled_at IS NULL`,
    ),
    enable: db.prepare(
      "UPDATE user_two_factor SET enabled_at = @at, last_step = @step WHERE user_id = @userId AND enabled_at IS NULL",
    ),
    takeStep: db.prepare(
      "UPDATE user_two_factor SET last_step = @step WHERE user_id = @userId AND (last_step IS NULL OR last_step < @step)",
    ),
    deleteTwoFactor: db.prepare("DELETE FROM user_two_factor WHERE user_id = ?"),
    deleteCodes: db.prepare("DELETE FROM user_backup_codes WHERE user_id = ?"),
    insertCode: db.prepare(
      "INSERT INTO user_backup_codes (user_id, code_hash, created_at) VALUES (@userId, @codeHash, @at)",
    ),
    useCode: db.prepare(
      "UPDATE user_backup_codes SET used_at = @at WHERE user_id = @userId AND code_hash = @codeHash AND used_at IS NULL",
    ),
    codesLeft: db.prepare(
      "SELECT COUNT(*) AS n FROM user_backup_codes WHERE user_id = ? AND used_at IS NULL",
    ),
    insertChallenge: db.prepare(
      `INSERT INTO sign_in_challenges (challenge_hash, user_id, expires_at, ip, user_agent, device)
       VALUES (@challengeHash, @userId, @expiresAt, @ip, @userAgent, @device)`,
    ),
    challenge: db.prepare(
      "SELECT user_id, expires_at, ip, user_agent, device FROM sign_in_challenges WHERE challenge_hash = ?",
    ),
    deleteChallenge: db.prepare("DELETE FROM sign_in_challenges WHERE challenge_hash = ?"),
    deleteExpiredChallenges: db.prepare("DELETE FROM sign_in_challenges WHERE expires_at <= ?"),
    insertDevice: db.prepare(
      `INSERT INTO user_devices (user_id, device_hash, first_seen_at) VALUES (@userId, @deviceHash, @at)
       ON CONFLICT (user_id, device_hash) DO NOTHING`,
    ),
    deviceCount: db.prepare("SELECT COUNT(*) AS n FROM user_devices WHERE user_id = ?"),
    sessions: db.prepare(
      `SELECT token_hash, ip, user_agent, created_at, used_at FROM tokens
       WHERE user_id = @userId AND revoked_at IS NULL AND expires_at > @now AND used_at + idle_s * 1000 > @now
       ORDER BY used_at DESC, created_at DESC`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

export function twoFactorOf(db: DB, userId: number): TwoFactorRow | undefined {
  return stmts(db).twoFactor.get(userId) as TwoFactorRow | undefined;
}

/** Keeps a new secret waiting for its first code; false when two-factor is in force already. */
export function setPendingSecret(
  db: DB,
  p: { userId: number; secret: string; at: number },
): boolean {
  return stmts(db).pending.run(p).changes === 1;
}

/** Puts a waiting secret in force, its first code's step taken; false unless one was waiting. */
export function enableTwoFactor(db: DB, p: { userId: number; at: number; step: number }): boolean {
  return stmts(db).enable.run(p).changes === 1;
}

/** Takes a code's time step unless that step or a later one was taken (a code is used once). */
export function takeTimeStep(db: DB, p: { userId: number; step: number }): boolean {
  return stmts(db).takeStep.run(p).changes === 1;
}

/** Turns two-factor off: the secret and every backup code go. */
export function deleteTwoFactor(db: DB, userId: number): void {
  stmts(db).deleteTwoFactor.run(userId);
  stmts(db).deleteCodes.run(userId);
}

/** Replaces the account's backup codes by these hashes. */
export function replaceBackupCodes(
  db: DB,
  p: { userId: number; codeHashes: string[]; at: number },
): void {
  const s = stmts(db);
  s.deleteCodes.run(p.userId);
  for (const codeHash of p.codeHashes) s.insertCode.run({ userId: p.userId, codeHash, at: p.at });
}

/** Uses a backup code; false when there is no such unused code. */
export function spendBackupCode(
  db: DB,
  p: { userId: number; codeHash: string; at: number },
): boolean {
  return stmts(db).useCode.run(p).changes === 1;
}

export function backupCodesLeft(db: DB, userId: number): number {
  return Number((stmts(db).codesLeft.get(userId) as { n: number }).n);
}

export function insertChallenge(
  db: DB,
  c: {
    challengeHash: string;
    userId: number;
    expiresAt: number;
    ip: string | null;
    userAgent: string | null;
    device: string | null;
  },
): void {
  stmts(db).insertChallenge.run(c);
}

export function challengeOf(db: DB, challengeHash: string): ChallengeRow | undefined {
  return stmts(db).challenge.get(challengeHash) as ChallengeRow | undefined;
}

/** Deletes a challenge; false when it was gone (another request used it). */
export function deleteChallenge(db: DB, challengeHash: string): boolean {
  return stmts(db).deleteChallenge.run(challengeHash).changes === 1;
}

export function deleteExpiredChallenges(db: DB, now: number): void {
  stmts(db).deleteExpiredChallenges.run(now);
}

/** Records a device of an account; true when the account had not used it before. */
export function rememberDevice(
  db: DB,
  p: { userId: number; deviceHash: string; at: number },
): boolean {
  return stmts(db).insertDevice.run(p).changes === 1;
}

export function deviceCount(db: DB, userId: number): number {
  return Number((stmts(db).deviceCount.get(userId) as { n: number }).n);
}

/** The account's live sessions (neither revoked, expired nor idle too long), last used first. */
export function liveSessions(db: DB, p: { userId: number; now: number }): SessionRow[] {
  return stmts(db).sessions.all(p) as SessionRow[];
}
