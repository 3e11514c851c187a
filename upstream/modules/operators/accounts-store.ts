/**
 * Operator accounts' SQL: the `operators` table (name, role, password hash, sealed TOTP secret, the
 * last accepted code) and `operator_tokens` (each sign-in, kept as its token's SHA-256).
 */
import type { DB } from "../../platform/db.js";
import type { OperatorRole } from "@contract/operators";

/** What a sign-in checks of an active operator. */
export interface SignInRow {
  id: number;
  name: string;
  role: OperatorRole;
  password_hash: string;
  totp_secret: string;
  last_code: string | null;
  last_code_at: number | null;
}

export function operatorNameTaken(db: DB, p: { name: string }): boolean {
  return !!db.prepare("SELECT 1 FROM operators WHERE name = ?").get(p.name);
}

export function insertOperator(
  db: DB,
  p: { name: string; role: OperatorRole; passwordHash: string; sealedSecret: string; at: number },
): void {
  db.prepare(
    "INSERT INTO operators (name, role, password_hash, totp_secret, created_at) VALUES (?, ?, ?, ?, ?)",
  ).run(p.name, p.role, p.passwordHash, p.sealedSecret, p.at);
}

/** Ends every sign-in of the operator named `name` (so a new role or a disabling holds at once). */
export function revokeTokensOfOperator(db: DB, p: { name: string; at: number }): void {
  db.prepare(
    "UPDATE operator_tokens SET revoked_at = ? WHERE revoked_at IS NULL AND operator_id = (SELECT id FROM operators WHERE name = ?)",
  ).run(p.at, p.name);
}

/** Marks an active operator disabled; false when there is none of that name. */
export function markOperatorDisabled(db: DB, p: { name: string; at: number }): boolean {
  return (
    db
      .prepare("UPDATE operators SET disabled_at = ? WHERE name = ? AND disabled_at IS NULL")
      .run(p.at, p.name).changes === 1
  );
}

/** The role of the active operator named `name`, or null. */
export function activeOperatorRole(db: DB, p: { name: string }): OperatorRole | null {
  const r = db
    .prepare("SELECT role FROM operators WHERE name = ? AND disabled_at IS NULL")
    .get(p.name) as { role: OperatorRole } | undefined;
  return r?.role ?? null;
}

export function updateOperatorRole(db: DB, p: { name: string; role: OperatorRole }): void {
  db.prepare("UPDATE operators SET role = ? WHERE name = ?").run(p.role, p.name);
}

/** Every operator, disabled ones too, in the order they were added. */
export function operatorRows(
  db: DB,
): { name: string; role: OperatorRole; createdAt: number; disabledAt: number | null }[] {
  return (
    db.prepare("SELECT name, role, created_at, disabled_at FROM operators ORDER BY id").all() as {
      name: string;
      role: OperatorRole;
      created_at: number;
      disabled_at: number | null;
    }[]
  ).map((r) => ({
    name: r.name,
    role: r.role,
    createdAt: r.created_at,
    disabledAt: r.disabled_at,
  }));
}

export function anyActiveOperator(db: DB): boolean {
  return !!db.prepare("SELECT 1 FROM operators WHERE disabled_at IS NULL LIMIT 1").get();
}

/** The active operator named `name`, as a sign-in checks it, or undefined. */
export function signInRow(db: DB, p: { name: string }): SignInRow | undefined {
  return db
    .prepare(
      "SELECT id, name, role, password_hash, totp_secret, last_code, last_code_at FROM operators WHERE name = ? AND disabled_at IS NULL",
    )
    .get(p.name) as SignInRow | undefined;
}

/**
 * Records `code` as operator `id`'s last accepted code at `at`, unless the same code was accepted
 * after `usedSince`; false when it was (another sign-in took it).
 */
export function takeCode(
  db: DB,
  p: { id: number; code: string; at: number; usedSince: number },
): boolean {
  return (
    db
      .prepare(
        "UPDATE operators SET last_code = ?, last_code_at = ? WHERE id = ? AND (last_code IS NULL OR last_code <> ? OR last_code_at IS NULL OR last_code_at <= ?)",
      )
      .run(p.code, p.at, p.id, p.code, p.usedSince).changes === 1
  );
}

export function updateTotpSecret(db: DB, p: { id: number; sealedSecret: string }): void {
  db.prepare("UPDATE operators SET totp_secret = ? WHERE id = ?").run(p.sealedSecret, p.id);
}

export function insertOperatorToken(
  db: DB,
  p: { tokenHash: string; operatorId: number; at: number; expiresAt: number },
): void {
  db.prepare(
    "INSERT INTO operator_tokens (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
  ).run(p.tokenHash, p.operatorId, p.at, p.expiresAt);
}

/** The active operator of a live (unrevoked, unexpired at `at`) token, or null. */
export function operatorByTokenHash(
  db: DB,
  p: { tokenHash: string; at: number },
): { name: string; role: OperatorRole } | null {
  const r = db
    .prepare(
      "SELECT o.name, o.role FROM operator_tokens t JOIN operators o ON o.id = t.operator_id WHERE t.token_hash = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND o.disabled_at IS NULL",
    )
    .get(p.tokenHash, p.at) as { name: string; role: OperatorRole } | undefined;
  return r ?? null;
}

export function revokeTokenHash(db: DB, p: { tokenHash: string; at: number }): void {
  db.prepare(
    "UPDATE operator_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
  ).run(p.at, p.tokenHash);
}
