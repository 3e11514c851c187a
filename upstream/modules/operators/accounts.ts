/**
 * Operator accounts: created from the command line (npm run operator -- add NAME --role ROLE), each
 * with a role (contract/operators.ts), a password (argon2id) and a TOTP secret for an authenticator
 * app. Signing in needs the name, the password and a current code; tries are counted before
 * anything is checked (platform/limits.ts: 5 per operator in 15 minutes, then a 15-minute lock), a
 * code is accepted once (also by two sign-ins at the same moment), and the token issued is kept
 * only as its SHA-256 and ends after OPERATOR_SESSION_MS. A change of role or a disabled account
 * ends the operator's sign-ins. Each change of an account writes its audit row in the same
 * transaction. TOTP secrets are stored sealed (platform/secret-box.ts); one stored before sealing
 * is sealed at its next sign-in.
 */
import crypto from "node:crypto";
import { generate, generateSecret, generateURI, verify } from "otplib";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import type { LimitCheck, Limits } from "../../platform/limits.js";
import { isSealed, seal, unseal } from "../../platform/secret-box.js";
import { hashPassword, verifyPassword } from "../identity/passwords.js";
import { isOperatorRole, TOKEN_ACTOR, type OperatorRole } from "@contract/operators";
import { writeAudit } from "./audit.js";
import {
  activeOperatorRole,
  anyActiveOperator,
  insertOperator,
  insertOperatorToken,
  markOperatorDisabled,
  operatorByTokenHash,
  operatorNameTaken,
  operatorRows,
  revokeTokenHash,
  revokeTokensOfOperator,
  signInRow,
  takeCode,
  updateOperatorRole,
  updateTotpSecret,
} from "./accounts-store.js";
import { sha256Hex } from "../../platform/sha256.js";

/** How long an operator's sign-in lasts. */
export const OPERATOR_SESSION_MS = 12 * 3600_000;
/** Seconds a TOTP code is accepted around its step (one step either side). */
const CODE_TOLERANCE_S = 30;
/** How long an accepted code stays used: longer than the time any code is accepted for. */
const REPLAY_WINDOW_MS = 3 * 30_000;
const NAME_RE = /^[A-Za-z0-9._-]{2,40}$/;

/** Who changed an operator account from the command line, in the audit log. */
export const CLI_ACTOR = "cli";

export interface NewOperator {
  name: string;
  role: OperatorRole;
  /** Shown once: the operator's first password. */
  password: string;
  /** For the authenticator app: the otpauth URI (and the secret inside it). */
  secret: string;
  uri: string;
}

export async function createOperator(
  db: DB,
  key: Buffer,
  name: string,
  role: OperatorRole,
  now = Date.now(),
): Promise<NewOperator> {
  if (!NAME_RE.test(name))
    throw new Error("an operator name is 2-40 letters, digits, dots, dashes or underscores");
  if (name.toLowerCase() === TOKEN_ACTOR)
    throw new Error(`"${TOKEN_ACTOR}" is the name OPERATOR_TOKEN acts under; choose another`);
  if (!isOperatorRole(role)) throw new Error(`unknown role ${String(role)}`);
  if (operatorNameTaken(db, { name })) throw new Error(`an operator named ${name} exists already`);
  const password = crypto.randomBytes(18).toString("base64url");
  const secret = generateSecret();
  const hash = await hashPassword(password);
  db.transaction(() => {
    insertOperator(db, {
      name,
      role,
      passwordHash: hash,
      sealedSecret: seal(key, secret),
      at: now,
    });
    writeAudit(db, {
      actor: CLI_ACTOR,
      action: "operator.add",
      target: `operator:${name}`,
      remark: `role ${role}`,
      at: now,
    });
  })();
  return {
    name,
    role,
    password,
    secret,
    uri: generateURI({ issuer: "Tradepost", label: name, secret }),
  };
}

export function disableOperator(db: DB, name: string, now = Date.now()): boolean {
  return db.transaction(() => {
    if (!markOperatorDisabled(db, { name, at: now })) return false;
    // Its sign-ins end with it.
    revokeTokensOfOperator(db, { name, at: now });
    writeAudit(db, {
      actor: CLI_ACTOR,
      action: "operator.disable",
      target: `operator:${name}`,
      at: now,
    });
    return true;
  })();
}

/** Gives an active operator another role; their sign-ins end, so the new role holds at once. */
export function setOperatorRole(
  db: DB,
  name: string,
  role: OperatorRole,
  now = Date.now(),
): boolean {
  if (!isOperatorRole(role)) throw new Error(`unknown role ${String(role)}`);
  return db.transaction(() => {
    const before = activeOperatorRole(db, { name });
    if (before === null) return false;
    updateOperatorRole(db, { name, role });
    revokeTokensOfOperator(db, { name, at: now });
    writeAudit(db, {
      actor: CLI_ACTOR,
      action: "operator.role",
      target: `operator:${name}`,
      remark: `role ${before} -> ${role}`,
      at: now,
    });
    return true;
  })();
}

export function listOperators(
  db: DB,
): { name: string; role: OperatorRole; createdAt: number; disabled: boolean }[] {
  return operatorRows(db).map((r) => ({
    name: r.name,
    role: r.role,
    createdAt: r.createdAt,
    disabled: r.disabledAt !== null,
  }));
}

export function hasOperators(db: DB): boolean {
  return anyActiveOperator(db);
}

/** The current code of a secret (tests and the CLI's check). */
export function currentCode(secret: string): Promise<string> {
  return generate({ secret });
}

/** The plain TOTP secret, or null when it was sealed with another key (a refused sign-in). */
function secretOf(key: Buffer, stored: string): string | null {
  try {
    return unseal(key, stored);
  } catch {
    return null;
  }
}

/** Signs an operator in with password and code; the token, or a refusal that says nothing more. */
export async function signInOperator(
  db: DB,
  limits: Limits,
  key: Buffer,
  p: { name: string; password: string; code: string; ip: string },
  now = Date.now(),
): Promise<{ token: string; name: string; role: OperatorRole; expiresAt: number }> {
  const checks: LimitCheck[] = [
    ["operator_login", p.name.toLowerCase()],
    ["operator_login_ip", p.ip],
  ];
  await limits.consume(...checks);
  const op = signInRow(db, { name: p.name });
  const refused = new DomainError("operator_login_failed", CODE.FAIL, {}, 401);
  // verifyPassword checks a dummy hash for an unknown name, so the answer's time tells nothing.
  const passwordOk = await verifyPassword(op?.password_hash, p.password);
  if (!op || !passwordOk || !/^\d{6}$/.test(p.code)) throw refused;
  const secret = secretOf(key, op.totp_secret);
  if (secret === null) throw refused;
  const { valid } = await verify({
    secret,
    token: p.code,
    epochTolerance: CODE_TOLERANCE_S,
  });
  const replayed =
    op.last_code === p.code && op.last_code_at !== null && now - op.last_code_at < REPLAY_WINDOW_MS;
  if (!valid || replayed) throw refused;
  const token = crypto.randomBytes(32).toString("hex");
  const expiresAt = now + OPERATOR_SESSION_MS;
  const accepted = db.transaction(() => {
    // The code is taken only if no other sign-in took it since it was read: two sign-ins with the
    // same code at the same moment get one token between them.
    const usedSince = now - REPLAY_WINDOW_MS;
    if (!takeCode(db, { id: op.id, code: p.code, at: now, usedSince })) return false;
    if (!isSealed(op.totp_secret))
      updateTotpSecret(db, { id: op.id, sealedSecret: seal(key, secret) });
    insertOperatorToken(db, { tokenHash: sha256Hex(token), operatorId: op.id, at: now, expiresAt });
    return true;
  })();
  if (!accepted) throw refused;
  // A success clears the name's failed tries and gives back this address's try.
  await limits.clear("operator_login", p.name.toLowerCase());
  await limits.refund(["operator_login_ip", p.ip]);
  return { token, name: op.name, role: op.role, expiresAt };
}

/** The operator a token belongs to, or null (unknown, expired, revoked, or the operator disabled). */
export function operatorOfToken(
  db: DB,
  token: string,
  now = Date.now(),
): { name: string; role: OperatorRole } | null {
  return operatorByTokenHash(db, { tokenHash: sha256Hex(token), at: now });
}

export function revokeOperatorToken(db: DB, token: string, now = Date.now()): void {
  revokeTokenHash(db, { tokenHash: sha256Hex(token), at: now });
}
