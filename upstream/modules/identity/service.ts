/**
 * The identity module's rules and transactions: verification codes (with the captcha and the resend
 * wait), sign-up, sign-in (password, demo id), demo accounts, password change and reset, sign-out,
 * under the abuse limits of platform/limits.ts (sign-in tries, sign-ups and codes per address, codes
 * sent and wrong codes per recipient). Inputs are the request's fields as their contract schemas
 * read them (@contract/api/identity, profile); the rules that need the store or another field are
 * here: the address a type needs, an area that exists, a common password, equal passwords, the
 * code. Refusals are DomainErrors. Sessions ended here are announced through `endSessions` (the
 * websocket hub drops them), so the service knows nothing of HTTP or the hub.
 */
import crypto from "node:crypto";
import Decimal from "decimal.js";
import type { DB } from "../../platform/db.js";
import { DomainError, CODE_FAIL } from "../../platform/errors.js";
import { issueToken, revokeToken, tokenHash, type SignInOrigin } from "../../platform/http/auth.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { getBoolSetting, getSetting } from "../../platform/settings.js";
import type { LimitCheck, Limits } from "../../platform/limits.js";
import type { CodeMessage } from "../../platform/mail/outbox.js";
import type { LoginType } from "@contract/enums";
import type { LoginData, SignInAnswer } from "@contract/api/identity";
import type { AccountSecurity } from "./security.js";
import { isEmail, normaliseEmail, normaliseMobile } from "./addresses.js";
import { MICRO } from "../money/ledger.js";
import type { MoneyService } from "../money/service.js";
import {
  BIND_EMAIL_PURPOSE,
  checkFailureKey,
  consumeCode,
  createCode,
  discardCode,
  recipientKey,
  resendWaitSeconds,
  CODE_TTL_MS,
  type Channel,
  type CheckResult,
  type Purpose,
} from "./codes.js";
import { checkCaptcha } from "./captcha.js";
import { hashPassword, isCommonPassword, verifyPassword } from "./passwords.js";
import {
  areaById,
  areaOf,
  invitedCount,
  setEmailIfNone,
  insertDemoUser,
  insertUser,
  revokeTokensExcept,
  setPasswordHash,
  userByDemoId,
  userByEmail,
  userByInviteCode,
  userById,
  userByMobile,
  type UserRecord,
} from "./store.js";
import { loginView } from "./views.js";

export type Area = { id: number; global_code: string };

export interface IdentityDeps {
  db: DB;
  money: MoneyService;
  tokenTtlSeconds: number;
  tokenIdleSeconds: number;
  /** Milliseconds between two codes to one recipient (config CODE_RESEND_S). */
  resendMs: number;
  limits: Limits;
  /** Delivers a code message (mail, SMS, outbox); false when it could not be sent. */
  deliver(m: CodeMessage): Promise<boolean>;
  /** Ends the live sessions (websocket logins) of revoked tokens, given by their hashes. */
  endSessions(tokenHashes: string[]): void;
  /** Two-factor sign-in and sessions (security.ts). */
  security: AccountSecurity;
}

/** The type sent, or when absent guessed from the account (a mobile number unless it has "@"). */
export function identityType(type: LoginType | undefined, account: string | undefined): LoginType {
  if (type) return type;
  return account && !account.includes("@") && normaliseMobile(account) ? "mobile" : "email";
}

/** The refusal of a required field the request left out (invalid_input, "Please complete"). */
function missing(field: string): DomainError {
  return new DomainError("invalid_input", CODE_FAIL, { field });
}

/** Refuses a new password on the list of common passwords. */
function refuseCommon(password: string): void {
  if (isCommonPassword(password)) throw new DomainError("accounts.password_common");
}

export class IdentityService {
  constructor(private readonly deps: IdentityDeps) {}

  private get db(): DB {
    return this.deps.db;
  }

  /**
   * Runs `guarded` (which checks a code with consumeCode) under the daily cap of wrong codes per
   * recipient: the try is counted before the check, so parallel guesses cannot pass the cap, and
   * given back unless the code was wrong. New codes do not reset this count.
   */
  private async underCodeCap<R extends CheckResult | "exists" | "bound">(
    rkey: string,
    guarded: () => Promise<R>,
  ): Promise<R> {
    const check: LimitCheck = ["code_check_recipient", rkey];
    await this.deps.limits.consume(check);
    let result: R | undefined;
    try {
      result = await guarded();
      return result;
    } finally {
      if (result !== "wrong" && result !== "locked") await this.deps.limits.refund(check);
    }
  }

  /** An enabled area by its id, or null. */
  area(id: number | undefined): Area | null {
    return id === undefined ? null : areaById(this.db, id);
  }

  /** Sends a code for sign-up (purpose 1) or reset (2) to an e-mail address or a mobile number of `area`. */
  async sendCode(
    lang: Lang,
    channel: Channel,
    address: string,
    area: Area | null,
    purpose: Purpose,
    ip: string,
    captcha: { id?: string; code?: string },
  ): Promise<{ resend_in: number; expires_in: number }> {
    const rkey = recipientKey(channel, address, area?.id ?? null);
    return this.underSendLimits(ip, rkey, () =>
      this.issueCode(lang, channel, address, area, purpose, rkey, captcha),
    );
  }

  /**
   * Runs a send under the per-address and per-recipient limits. Counted first (the captcha and the
   * account checks answer guesses too); the recipient's count is given back unless a code goes out.
   */
  private async underSendLimits<R>(ip: string, rkey: string, send: () => Promise<R>): Promise<R> {
    const perRecipient: LimitCheck = ["code_send_recipient", rkey];
    await this.deps.limits.consume(["code_send_ip", ip], perRecipient);
    let sent = false;
    try {
      const r = await send();
      sent = true;
      return r;
    } finally {
      if (!sent) await this.deps.limits.refund(perRecipient);
    }
  }

  /** The code's checks (captcha, account, resend wait), then its creation and delivery. */
  private async issueCode(
    lang: Lang,
    channel: Channel,
    address: string,
    area: Area | null,
    purpose: Purpose,
    rkey: string,
    captcha: { id?: string; code?: string },
  ): Promise<{ resend_in: number; expires_in: number }> {
    const db = this.db;
    if (getBoolSetting(db, "register.captcha")) {
      if (!captcha.id || !captcha.code) throw new DomainError("accounts.captcha_required");
      if (!checkCaptcha(db, captcha.id, captcha.code))
        throw new DomainError("accounts.captcha_invalid");
    }
    const existing =
      channel === "email" ? userByEmail(db, address) : userByMobile(db, address, area!.id);
    if (purpose === 1 && existing) throw new DomainError("accounts.already_registered");
    if (purpose === 2 && existing?.is_demo) throw new DomainError("demo_only_true_account");
    // A reset for an address no account has answers as for one that has (same limits, same wait,
    // same answer) and sends nothing: the form does not tell who is a customer.
    const silent = purpose === 2 && !existing;
    return this.deliverCode(lang, channel, address, area, purpose, rkey, silent);
  }

  /** Creates a code for the recipient (unless its resend wait runs) and delivers it. */
  private async deliverCode(
    lang: Lang,
    channel: Channel,
    address: string,
    area: Area | null,
    purpose: Purpose,
    rkey: string,
    silent = false,
  ): Promise<{ resend_in: number; expires_in: number }> {
    const db = this.db;
    const issued = db.transaction(() => {
      const wait = resendWaitSeconds(db, rkey, Date.now(), this.deps.resendMs);
      if (wait > 0) return { wait };
      return { wait: 0, ...createCode(db, channel, rkey, purpose) };
    })();
    if (issued.wait > 0 || !("code" in issued))
      throw new DomainError("accounts.code_wait", CODE_FAIL, { count: issued.wait });
    // Kept (its resend wait runs as for any code) but never sent: nobody can enter it.
    if (silent) return { resend_in: this.deps.resendMs / 1000, expires_in: CODE_TTL_MS / 1000 };

    const minutes = CODE_TTL_MS / 60_000;
    const body =
      channel === "email"
        ? translate(lang, "accounts.mail_body", { code: issued.code, count: minutes })
        : translate(lang, "accounts.sms_body", { code: issued.code, count: minutes });
    const delivered = await this.deps
      .deliver({
        channel,
        recipient: address,
        areaId: area?.id ?? null,
        to: channel === "email" ? address : `${area!.global_code}${address}`,
        purpose,
        code: issued.code,
        subject:
          channel === "email"
            ? translate(
                lang,
                purpose === 1
                  ? "accounts.mail_subject_register"
                  : purpose === BIND_EMAIL_PURPOSE
                    ? "account.mail_subject_bind"
                    : "accounts.mail_subject_reset",
              )
            : null,
        body,
      })
      .catch((err: unknown) => {
        discardCode(db, issued.id);
        throw err;
      });
    if (!delivered) {
      discardCode(db, issued.id);
      throw new DomainError("accounts.send_failed");
    }
    return { resend_in: this.deps.resendMs / 1000, expires_in: CODE_TTL_MS / 1000 };
  }

  /**
   * Sign-up with a code sent for purpose 1; does not sign in. An e-mail sign-up needs `account`, a
   * mobile one `area_id` and the number (`mobile`, else `account`).
   */
  async register(
    type: LoginType,
    f: {
      account?: string;
      mobile?: string;
      area_id?: number;
      password: string;
      re_password: string;
      sms_code?: string;
      invite_code?: string;
    },
    ip: string,
  ): Promise<void> {
    const db = this.db;
    if (type === "email" && !f.account) throw missing("account");
    if (type === "mobile" && f.area_id === undefined) throw missing("area_id");
    refuseCommon(f.password);
    await this.deps.limits.consume(["register_ip", ip]);
    let channel: Channel;
    let address: string;
    let area: Area | null = null;
    if (type === "email") {
      channel = "email";
      address = normaliseEmail(f.account!);
      if (!isEmail(address)) throw new DomainError("accounts.invalid_email");
    } else {
      channel = "sms";
      const raw = f.mobile ?? f.account;
      if (!raw) throw missing("mobile");
      const m = normaliseMobile(raw);
      if (!m) throw new DomainError("accounts.invalid_mobile");
      address = m;
      area = this.area(f.area_id);
      if (!area) throw new DomainError("accounts.invalid_area");
    }
    if (f.password !== f.re_password) throw new DomainError("accounts.password_inconsistency");
    if (!f.sms_code) throw new DomainError("accounts.code_required");
    let inviter: UserRecord | undefined;
    if (f.invite_code) {
      inviter = userByInviteCode(db, f.invite_code);
      if (!inviter || inviter.is_demo) throw new DomainError("accounts.invite_invalid");
    }
    const exists = () =>
      channel === "email" ? userByEmail(db, address) : userByMobile(db, address, area!.id);
    if (exists()) throw new DomainError("accounts.already_registered");

    const rkey = recipientKey(channel, address, area?.id ?? null);
    const code = f.sms_code;
    const result = await this.underCodeCap(rkey, async () => {
      const hash = await hashPassword(f.password);
      return db.transaction(() => {
        if (exists()) return "exists" as const;
        const check = consumeCode(db, rkey, 1, code);
        if (check !== "ok") return check;
        insertUser(db, {
          email: channel === "email" ? address : null,
          mobile: channel === "sms" ? address : null,
          areaId: area?.id ?? null,
          passwordHash: hash,
          invitedBy: inviter?.id ?? null,
        });
        return "ok" as const;
      })();
    });
    if (result === "exists") throw new DomainError("accounts.already_registered");
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
  }

  /** Sign-in of a demo account by its demo id (no second factor: a demo account has no password). */
  loginDemo(demoId: string, origin: SignInOrigin) {
    const u = /^[0-9a-f]{32}$/.test(demoId) ? userByDemoId(this.db, demoId) : undefined;
    if (!u) throw new DomainError("accounts.login_failed");
    return {
      token: issueToken(
        this.db,
        u.id,
        this.deps.tokenTtlSeconds,
        this.deps.tokenIdleSeconds,
        origin,
      ),
      user: loginView(u),
    };
  }

  /**
   * Sign-in with an e-mail address or a mobile number (`login_type`, else guessed from the account)
   * and a password, both required. Each try is counted before the password is checked (per account
   * and client address, per account, per address), so parallel tries cannot pass the limits; a
   * success clears the account-and-address count and gives back its try to the other two, which
   * therefore count failures. With two-factor on, a right password answers the second step's
   * challenge instead of a session.
   */
  async login(
    f: {
      account?: string;
      password?: string;
      login_type?: LoginType;
      area_id?: number;
      device?: string;
    },
    ip: string,
    origin: SignInOrigin,
    lang: Lang,
  ): Promise<SignInAnswer> {
    const db = this.db;
    if (!f.account) throw missing("account");
    if (f.password === undefined) throw missing("password");
    const account = f.account;
    const type = identityType(f.login_type, account);
    let user: UserRecord | undefined;
    let norm: string;
    if (type === "email") {
      norm = normaliseEmail(account);
      user = userByEmail(db, norm);
    } else {
      norm = normaliseMobile(account) ?? account;
      const a = this.area(f.area_id);
      if (f.area_id !== undefined && !a) throw new DomainError("accounts.invalid_area");
      user = normaliseMobile(account) ? userByMobile(db, norm, a?.id ?? null) : undefined;
    }
    const subject = `${type}:${norm}`;
    const limits = this.deps.limits;
    await limits.consume(
      ["login_account_ip", `${subject}|${ip}`],
      ["login_account", subject],
      ["login_ip", ip],
    );
    const good = await verifyPassword(user?.is_demo ? null : user?.password_hash, f.password);
    if (!good || !user) throw new DomainError("accounts.login_failed");
    await limits.clear("login_account_ip", `${subject}|${ip}`);
    await limits.refund(["login_account", subject], ["login_ip", ip]);
    const security = this.deps.security;
    if (security.isOn(user.id)) return security.challenge(user.id, origin, f.device);
    return { token: security.signIn(user, origin, f.device, lang), user: loginView(user) };
  }

  /** The second step of a sign-in with two-factor on: a right code for the challenge. */
  async loginSecondFactor(
    f: { challenge: string; code: string; device?: string },
    origin: SignInOrigin,
    lang: Lang,
  ): Promise<LoginData> {
    const security = this.deps.security;
    const done = await security.completeSignIn(f.challenge, f.code);
    const user = userById(this.db, done.userId);
    if (!user) throw new DomainError("security.two_factor_expired");
    return {
      token: security.signIn(user, origin, f.device ?? done.device, lang),
      user: loginView(user),
    };
  }

  /** Creates a demo account with demo.initial_balance (one demo_initial ledger row); returns its demo id. */
  createDemo(): string {
    const demoId = crypto.randomBytes(16).toString("hex");
    const amount = this.demoInitialMicro();
    this.deps.money.transaction(() => {
      const userId = insertDemoUser(this.db, demoId);
      this.deps.money.post({ userId, amountMicro: amount, kind: "demo_initial", ref: "demo" });
    });
    return demoId;
  }

  private demoInitialMicro(): number {
    try {
      const d = new Decimal(getSetting(this.db, "demo.initial_balance") ?? "10000");
      if (d.isFinite() && d.gte(0))
        return d.mul(MICRO).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber();
    } catch {
      /* fall through to the default */
    }
    return 10_000 * MICRO;
  }

  /**
   * Changes the password of a signed-in real account with a code sent for purpose 2 to its address
   * of `type` (when absent, its e-mail if it has one); ends its other sessions.
   */
  async amendPassword(
    me: Pick<UserRecord, "id" | "email" | "mobile" | "area_id">,
    f: { new_password: string; re_password?: string; auth_code?: string; type?: LoginType },
    currentToken: string | null,
  ): Promise<void> {
    const db = this.db;
    refuseCommon(f.new_password);
    if (f.re_password !== undefined && f.re_password !== f.new_password)
      throw new DomainError("accounts.password_inconsistency");
    if (!f.auth_code) throw new DomainError("accounts.code_required");
    const useMobile = f.type === "mobile" || (f.type === undefined && !me.email && !!me.mobile);
    if (useMobile ? !me.mobile : !me.email) throw missing("type");
    const rkey = useMobile
      ? recipientKey("sms", me.mobile!, me.area_id)
      : recipientKey("email", me.email!, null);
    const code = f.auth_code;
    const result = await this.underCodeCap(rkey, async () => {
      const hash = await hashPassword(f.new_password);
      return db.transaction(() => {
        const check = consumeCode(db, rkey, 2, code);
        if (check !== "ok") return check;
        setPasswordHash(db, me.id, hash);
        return "ok" as const;
      })();
    });
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
    this.deps.endSessions(revokeTokensExcept(db, me.id, currentToken));
  }

  /** Resets a forgotten password with a code sent for purpose 2; ends every session of the user. */
  async forgetPassword(f: {
    type?: LoginType;
    account: string;
    area_id?: number;
    new_password: string;
    secondary_password: string;
    auth_code?: string;
  }): Promise<void> {
    const db = this.db;
    refuseCommon(f.new_password);
    const type = identityType(f.type, f.account);
    if (f.new_password !== f.secondary_password)
      throw new DomainError("accounts.password_inconsistency");
    if (!f.auth_code) throw new DomainError("accounts.code_required");
    let user: UserRecord | undefined;
    let rkey: string;
    if (type === "email") {
      const email = normaliseEmail(f.account);
      if (!isEmail(email)) throw new DomainError("accounts.invalid_email");
      user = userByEmail(db, email);
      rkey = recipientKey("email", email, null);
    } else {
      const m = normaliseMobile(f.account);
      if (!m) throw new DomainError("accounts.invalid_mobile");
      const a = this.area(f.area_id);
      if (f.area_id !== undefined && !a) throw new DomainError("accounts.invalid_area");
      user = userByMobile(db, m, a?.id ?? null);
      rkey = recipientKey("sms", m, user?.area_id ?? a?.id ?? null);
    }
    if (user?.is_demo) throw new DomainError("demo_only_true_account");
    // No account at this address: answered as a wrong code, counted as one (the form does not
    // tell who is a customer).
    const uid = user?.id ?? null;
    const code = f.auth_code;
    const result = await this.underCodeCap(rkey, async () => {
      const hash = await hashPassword(f.new_password);
      return db.transaction(() => {
        const check = consumeCode(db, rkey, 2, code);
        if (check !== "ok") return check;
        if (uid === null) return "wrong" as const;
        setPasswordHash(db, uid, hash);
        return "ok" as const;
      })();
    });
    if (result !== "ok" || uid === null) throw new DomainError(checkFailureKey(result));
    this.deps.endSessions(revokeTokensExcept(db, uid, null));
  }

  /** Ends one session. */
  logout(token: string): void {
    revokeToken(this.db, token);
    this.deps.endSessions([tokenHash(token)]);
  }

  /**
   * Sends a password-change code (purpose 2, the code amend_password checks) to the signed-in real
   * account's own e-mail or mobile: the recipient comes from the account, never from the request.
   */
  async sendOwnCode(
    lang: Lang,
    me: Pick<UserRecord, "email" | "mobile" | "area_id">,
    type: "email" | "mobile" | undefined,
    ip: string,
  ): Promise<{ resend_in: number; expires_in: number }> {
    const useMobile = type === "mobile" || (type === undefined && !me.email && !!me.mobile);
    if (useMobile) {
      const area = me.area_id === null ? undefined : areaOf(this.db, me.area_id);
      if (!me.mobile || !area) throw new DomainError("account.no_such_address");
      const rkey = recipientKey("sms", me.mobile, area.id);
      return this.underSendLimits(ip, rkey, () =>
        this.deliverCode(lang, "sms", me.mobile!, area, 2, rkey),
      );
    }
    if (!me.email) throw new DomainError("account.no_such_address");
    const rkey = recipientKey("email", me.email, null);
    return this.underSendLimits(ip, rkey, () =>
      this.deliverCode(lang, "email", me.email!, null, 2, rkey),
    );
  }

  /** The e-mail a bind request names, checked: valid, the account has none, no other account has it. */
  private bindableEmail(me: Pick<UserRecord, "id" | "email">, raw: string): string {
    if (me.email) throw new DomainError("account.email_already_bound");
    const email = normaliseEmail(raw);
    if (!isEmail(email)) throw new DomainError("accounts.invalid_email");
    const owner = userByEmail(this.db, email);
    if (owner && owner.id !== me.id) throw new DomainError("account.email_taken");
    return email;
  }

  /** Sends a code (purpose 3) to an e-mail address a signed-in account without one wants to bind. */
  async sendBindEmailCode(
    lang: Lang,
    me: Pick<UserRecord, "id" | "email">,
    raw: string,
    ip: string,
  ): Promise<{ resend_in: number; expires_in: number }> {
    const email = this.bindableEmail(me, raw);
    const rkey = recipientKey("email", email, null);
    return this.underSendLimits(ip, rkey, () =>
      this.deliverCode(lang, "email", email, null, BIND_EMAIL_PURPOSE, rkey),
    );
  }

  /** Binds an e-mail address to a signed-in account without one, with the code sent to that address. */
  async bindEmail(me: Pick<UserRecord, "id" | "email">, raw: string, code: string): Promise<void> {
    const db = this.db;
    const email = this.bindableEmail(me, raw);
    const rkey = recipientKey("email", email, null);
    const result = await this.underCodeCap(rkey, async () =>
      db.transaction(() => {
        const owner = userByEmail(db, email);
        if (owner && owner.id !== me.id) return "exists" as const;
        const check = consumeCode(db, rkey, BIND_EMAIL_PURPOSE, code);
        if (check !== "ok") return check;
        return setEmailIfNone(db, me.id, email) ? ("ok" as const) : ("bound" as const);
      })(),
    );
    if (result === "exists") throw new DomainError("account.email_taken");
    if (result === "bound") throw new DomainError("account.email_already_bound");
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
  }

  /** The account's invite code and the number of real accounts registered with it. */
  inviteInfo(me: Pick<UserRecord, "id" | "invite_code">): {
    invite_code: string;
    invited_count: number;
  } {
    return { invite_code: me.invite_code, invited_count: invitedCount(this.db, me.id) };
  }
}
