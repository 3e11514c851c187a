/**
 * The account's safety: two-factor sign-in with an authenticator app (TOTP) and backup codes, the
 * second step of a sign-in, the new-device notice, and the session list.
 *
 * What holds:
 * - The TOTP secret is stored sealed (platform/secret-box.ts, the operators' key); it is in force
 *   only once a first code has confirmed it (enabled_at), and a set-up never replaces one in force.
 * - A code is accepted once: a TOTP code's time step must be later than the last accepted one
 *   (taken in one conditional update, so two requests with one code get one success), and a
 *   backup code is marked used in one conditional update. Backup codes are kept as SHA-256 hashes
 *   (with the user id), shown once.
 * - Every check of a code, wherever it is asked for (sign-in, turning off, new backup codes, a
 *   withdrawal, a new withdrawal address), is counted first under the `two_factor_user` limit, so
 *   guesses in parallel cannot pass it; a right code clears the count.
 * - A sign-in with two-factor on issues no token until its second step: the password step answers
 *   a challenge (kept as its SHA-256 for SECOND_FACTOR_TTL_S seconds) that a right code turns into
 *   a session once.
 */
import crypto from "node:crypto";
import { verify, generateSecret, generateURI } from "otplib";
import {
  BACKUP_CODE_ALPHABET,
  BACKUP_CODE_COUNT,
  SECOND_FACTOR_TTL_S,
  TOTP_CODE_RE,
  type AccountSession,
  type SecondFactorNeeded,
  type TwoFactorStatus,
} from "@contract/api/security";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { issueToken, tokenHash, type SignInOrigin } from "../../platform/http/auth.js";
import type { Lang } from "../../platform/i18n.js";
import type { Limits } from "../../platform/limits.js";
import { seal, unseal } from "../../platform/secret-box.js";
import { sessionCacheOf } from "../../platform/session-cache.js";
import { revokeTokenHash } from "../../platform/sessions-store.js";
import { wireTime } from "../../platform/wire.js";
import {
  backupCodesLeft,
  challengeOf,
  deleteChallenge,
  deleteExpiredChallenges,
  deleteTwoFactor,
  deviceCount,
  enableTwoFactor,
  insertChallenge,
  liveSessions,
  rememberDevice,
  replaceBackupCodes,
  setPendingSecret,
  takeTimeStep,
  twoFactorOf,
  spendBackupCode,
} from "./security-store.js";
import { revokeTokensExcept } from "./store.js";
import { describeUserAgent } from "./user-agent.js";
import { notify } from "../notify/notices.js";
import { sha256Hex } from "../../platform/sha256.js";

/** Seconds a TOTP code is accepted around its step (one step either side, for clocks that drift). */
const CODE_TOLERANCE_S = 30;
/** How many characters of a token's hash name its session. */
const SESSION_ID_CHARS = 16;
/** The issuer an authenticator app shows beside the account. */
const ISSUER = "Tradepost";

/** A backup code's stored form: bound to its account, so equal codes of two accounts differ. */
const backupHash = (userId: number, code: string) =>
  sha256Hex(`${userId}:${code.replace("-", "")}`);

/** A new backup code, "abcd-efgh", from BACKUP_CODE_ALPHABET (about 39 bits). */
function newBackupCode(): string {
  const n = BACKUP_CODE_ALPHABET.length;
  let s = "";
  for (let i = 0; i < 8; i++) s += BACKUP_CODE_ALPHABET[crypto.randomInt(n)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}

const newBackupCodes = () => Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
const hashes = (userId: number, codes: string[]) => codes.map((c) => backupHash(userId, c));

/** Who the sign-in is, as the new-device notice needs them. */
export interface SignedInUser {
  id: number;
  uid: string;
  email: string | null;
}

/** A sign-in from a device the account had not used, for the notice. */
export interface NewDeviceSignIn {
  user: SignedInUser;
  at: number;
  device: string;
  ip: string;
  /** The sign-in's language: the notice is written in it. */
  lang: Lang;
}

export interface SecurityDeps {
  db: DB;
  limits: Limits;
  /** The key that seals secrets (the operators' TOTP secrets' key). */
  sealingKey(): Buffer;
  tokenTtlSeconds: number;
  tokenIdleSeconds: number;
  /** Ends the live streams of revoked tokens, given by their hashes. */
  endSessions(tokenHashes: string[]): void;
  /** Tells the user of a sign-in from a new device (nothing waits for it). */
  announceNewDevice(s: NewDeviceSignIn): void;
}

export class AccountSecurity {
  constructor(private readonly deps: SecurityDeps) {}

  private get db(): DB {
    return this.deps.db;
  }

  /** Whether a sign-in of this account needs its second factor. */
  isOn(userId: number): boolean {
    return Boolean(twoFactorOf(this.db, userId)?.enabled_at);
  }

  status(user: { id: number; uid: string }): TwoFactorStatus {
    const row = twoFactorOf(this.db, user.id);
    if (row?.enabled_at)
      return { enabled: true, setup: null, backup_codes_left: backupCodesLeft(this.db, user.id) };
    if (!row) return { enabled: false, setup: null, backup_codes_left: 0 };
    const secret = unseal(this.deps.sealingKey(), row.secret);
    return {
      enabled: false,
      setup: { secret, uri: generateURI({ issuer: ISSUER, label: user.uid, secret }) },
      backup_codes_left: 0,
    };
  }

  /** A new secret waiting for its first code (replacing a waiting one). */
  setup(user: { id: number; uid: string }, now = Date.now()): TwoFactorStatus {
    const secret = generateSecret();
    const kept = setPendingSecret(this.db, {
      userId: user.id,
      secret: seal(this.deps.sealingKey(), secret),
      at: now,
    });
    if (!kept) throw new DomainError("security.two_factor_already_on");
    return this.status(user);
  }

  /** Puts the waiting secret in force with its first code; the backup codes, shown once. */
  async enable(userId: number, code: string, now = Date.now()): Promise<string[]> {
    const row = twoFactorOf(this.db, userId);
    if (row?.enabled_at) throw new DomainError("security.two_factor_already_on");
    if (!row) throw new DomainError("security.two_factor_no_setup");
    const codes = newBackupCodes();
    await this.counted(userId, async () => {
      const step = TOTP_CODE_RE.test(code) ? await this.stepOf(row.secret, code, null) : null;
      if (step === null) return false;
      return this.db.transaction(() => {
        if (!enableTwoFactor(this.db, { userId, at: now, step })) return false;
        replaceBackupCodes(this.db, { userId, codeHashes: hashes(userId, codes), at: now });
        return true;
      })();
    });
    return codes;
  }

  /** Turns two-factor off: a right code and the password (checked by `passwordOk`). */
  async disable(userId: number, code: string, passwordOk: () => Promise<boolean>): Promise<void> {
    this.mustBeOn(userId);
    // The password first, so that a wrong one spends no code.
    if (!(await passwordOk())) throw new DomainError("security.password_wrong");
    await this.requireCode(userId, code);
    deleteTwoFactor(this.db, userId);
  }

  /** New backup codes for a right code; the old ones stop working. */
  async renewBackupCodes(userId: number, code: string, now = Date.now()): Promise<string[]> {
    this.mustBeOn(userId);
    await this.requireCode(userId, code);
    return this.renewCodes(userId, now);
  }

  /**
   * What a withdrawal or a new withdrawal address asks: with two-factor on, a right code (refused
   * without one); with it off, nothing.
   */
  async requireCodeIfOn(userId: number, code: string | undefined): Promise<void> {
    if (!this.isOn(userId)) return;
    if (!code) throw new DomainError("security.two_factor_code_required");
    await this.requireCode(userId, code);
  }

  /** The password was right and two-factor is on: the challenge the second step answers. */
  challenge(
    userId: number,
    origin: SignInOrigin,
    device: string | undefined,
    now = Date.now(),
  ): SecondFactorNeeded {
    const challenge = crypto.randomBytes(32).toString("base64url");
    deleteExpiredChallenges(this.db, now);
    insertChallenge(this.db, {
      challengeHash: sha256Hex(challenge),
      userId,
      expiresAt: now + SECOND_FACTOR_TTL_S * 1000,
      ip: origin.ip,
      userAgent: origin.userAgent,
      device: device ?? null,
    });
    return { second_factor: { challenge, expires_in: SECOND_FACTOR_TTL_S } };
  }

  /**
   * The second step: the challenge's account, once its code is right (the challenge is used up
   * then). An unknown or expired challenge asks to start again.
   */
  async completeSignIn(
    challenge: string,
    code: string,
    now = Date.now(),
  ): Promise<{ userId: number; origin: SignInOrigin; device: string | undefined }> {
    const hash = sha256Hex(challenge);
    const c = challengeOf(this.db, hash);
    if (!c || c.expires_at <= now) throw new DomainError("security.two_factor_expired");
    await this.requireCode(c.user_id, code);
    // A challenge signs in once, also when two right codes arrive together.
    if (!deleteChallenge(this.db, hash)) throw new DomainError("security.two_factor_expired");
    return {
      userId: c.user_id,
      origin: { ip: c.ip, userAgent: c.user_agent },
      device: c.device ?? undefined,
    };
  }

  /** Issues the session of a completed sign-in and notes its device (announcing a new one). */
  signIn(
    user: SignedInUser,
    origin: SignInOrigin,
    device: string | undefined,
    lang: Lang,
    now = Date.now(),
  ): string {
    const token = issueToken(
      this.db,
      user.id,
      this.deps.tokenTtlSeconds,
      this.deps.tokenIdleSeconds,
      origin,
    );
    const key = device ? `id:${device}` : `ua:${origin.userAgent ?? ""}`;
    const isNew = rememberDevice(this.db, { userId: user.id, deviceHash: sha256Hex(key), at: now });
    // The account's first device is where it started, not news.
    if (isNew && deviceCount(this.db, user.id) > 1) {
      const device = describeUserAgent(origin.userAgent);
      notify(this.db, {
        userId: user.id,
        kind: "new_device",
        params: { device: device || "?", ip: origin.ip || "?" },
        at: now,
      });
      this.deps.announceNewDevice({ user, at: now, device, ip: origin.ip ?? "", lang });
    }
    return token;
  }

  /** The account's live sessions, the one holding `currentToken` marked. */
  sessions(userId: number, currentToken: string | null, now = Date.now()): AccountSession[] {
    const current = currentToken ? tokenHash(currentToken) : null;
    return liveSessions(this.db, { userId, now }).map((s) => ({
      id: s.token_hash.slice(0, SESSION_ID_CHARS),
      device: describeUserAgent(s.user_agent),
      user_agent: s.user_agent ?? "",
      ip: s.ip ?? "",
      created_at: wireTime(s.created_at),
      used_at: wireTime(s.used_at),
      current: s.token_hash === current,
    }));
  }

  /** Ends one of the account's sessions by its id; refused when it has no such live session. */
  endSession(userId: number, id: string, now = Date.now()): void {
    const s = liveSessions(this.db, { userId, now }).find(
      (x) => x.token_hash.slice(0, SESSION_ID_CHARS) === id,
    );
    if (!s) throw new DomainError("security.session_not_found");
    revokeTokenHash(this.db, { tokenHash: s.token_hash, revokedAt: now });
    sessionCacheOf(this.db).forget(s.token_hash);
    this.deps.endSessions([s.token_hash]);
  }

  /** Ends every session of the account but `currentToken`'s; how many ended. */
  endOthers(userId: number, currentToken: string): number {
    const ended = revokeTokensExcept(this.db, userId, currentToken);
    this.deps.endSessions(ended);
    return ended.length;
  }

  /** Support's reset: two-factor off and every session ended (the user signs in with the password). */
  reset(userId: number): void {
    this.db.transaction(() => deleteTwoFactor(this.db, userId))();
    this.deps.endSessions(revokeTokensExcept(this.db, userId, null));
  }

  private mustBeOn(userId: number): void {
    if (!this.isOn(userId)) throw new DomainError("security.two_factor_off");
  }

  /** Checks and uses a code (TOTP or backup) under the wrong-code limit; refuses a wrong one. */
  private async requireCode(userId: number, code: string): Promise<void> {
    await this.counted(userId, () => this.useCode(userId, code));
  }

  /**
   * Runs a code check under `two_factor_user`: counted before it runs, cleared by a right code; a
   * wrong one is refused with accounts.two_factor_wrong.
   */
  private async counted(userId: number, check: () => Promise<boolean>): Promise<void> {
    const subject = String(userId);
    await this.deps.limits.consume(["two_factor_user", subject]);
    if (!(await check())) throw new DomainError("security.two_factor_wrong");
    await this.deps.limits.clear("two_factor_user", subject);
  }

  /** Uses a code of an account with two-factor on: true when it was right and not used before. */
  private async useCode(userId: number, code: string, now = Date.now()): Promise<boolean> {
    const row = twoFactorOf(this.db, userId);
    if (!row?.enabled_at) return false;
    if (!TOTP_CODE_RE.test(code))
      return spendBackupCode(this.db, { userId, codeHash: backupHash(userId, code), at: now });
    const step = await this.stepOf(row.secret, code, row.last_step);
    return step !== null && takeTimeStep(this.db, { userId, step });
  }

  /** The time step of a right TOTP code later than `after`; null for a wrong or used one. */
  private async stepOf(sealed: string, code: string, after: number | null): Promise<number | null> {
    let secret: string;
    try {
      secret = unseal(this.deps.sealingKey(), sealed);
    } catch {
      return null;
    }
    const r = await verify({
      secret,
      token: code,
      epochTolerance: CODE_TOLERANCE_S,
      ...(after === null ? {} : { afterTimeStep: after }),
    });
    return r.valid && "timeStep" in r ? r.timeStep : null;
  }

  private renewCodes(userId: number, now: number): string[] {
    const codes = newBackupCodes();
    this.db.transaction(() =>
      replaceBackupCodes(this.db, { userId, codeHashes: hashes(userId, codes), at: now }),
    )();
    return codes;
  }
}
