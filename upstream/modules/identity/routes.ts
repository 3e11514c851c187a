/**
 * Accounts area: captcha, verification codes (send_email, send_sms), register, loginForU, demo
 * accounts, user info and balance, password change and reset, logout. See upstream/API.md.
 */
import crypto from "node:crypto";
import Decimal from "decimal.js";
import type { FastifyInstance, FastifyRequest } from "fastify";
import * as api from "@contract/api/identity";
import { route } from "../../platform/http/route.js";
import { z } from "zod";
import type { AppContext } from "../../app.js";
import { DomainError, CODE_FAIL, CODE_RATE_LIMITED } from "../../platform/errors.js";
import { issueToken, requireUser, revokeToken, tokenOf } from "../../platform/http/auth.js";
import { translate } from "../../platform/i18n.js";
import { MICRO } from "../money/ledger.js";
import { getBoolSetting, getSetting } from "../../platform/settings.js";
import type { DB } from "../../platform/db.js";
import { fieldsOf, isEmail, normaliseEmail, normaliseMobile, optional, parseFields, password, required } from "../../platform/http/fields.js";
import { checkFailureKey, consumeCode, createCode, discardCode, recipientKey, resendWaitSeconds, RESEND_MS, CODE_TTL_MS, type Channel, type Purpose } from "./codes.js";
import { checkCaptcha, createCaptcha } from "./captcha.js";
import { deliver } from "../../platform/mail/outbox.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { clearLoginFailures, loginLockedMinutes, recordLoginFailure } from "./throttle.js";
import {
  loginView,
  microToNumber,
  newInviteCode,
  newUid,
  userByDemoId,
  userByEmail,
  userByInviteCode,
  userByMobile,
  type UserRecord,
} from "./users.js";

function area(db: DB, raw: string | undefined): { id: number; global_code: string } | null {
  if (!raw || !/^\d{1,6}$/.test(raw)) return null;
  const row = db.prepare("SELECT id, global_code FROM areas WHERE id = ? AND enabled = 1").get(Number(raw)) as { id: number; global_code: string } | undefined;
  return row ?? null;
}

const purposeField = () =>
  required().refine((v) => v === "1" || v === "2", "accounts.type_invalid").transform((v) => Number(v) as Purpose);

/** "email" or "mobile"; when absent, guessed from the account ("@" means e-mail). */
function identityType(raw: string | undefined, account: string | undefined): "email" | "mobile" {
  const v = (raw ?? "").trim().toLowerCase();
  if (v === "email" || v === "mobile") return v;
  if (v === "" || v === "1" || v === "2") return account && !account.includes("@") && normaliseMobile(account) ? "mobile" : "email";
  throw new DomainError("accounts.type_invalid");
}

/** Lists the live tokens of a user except one, revokes them and closes their websocket sessions. */
function revokeOtherTokens(ctx: AppContext, userId: number, keep: string | null): void {
  const rows = ctx.db
    .prepare("SELECT token FROM tokens WHERE user_id = ? AND revoked_at IS NULL AND token IS NOT ?")
    .all(userId, keep) as { token: string }[];
  const now = Date.now();
  const upd = ctx.db.prepare("UPDATE tokens SET revoked_at = ? WHERE token = ?");
  for (const r of rows) upd.run(now, r.token);
  for (const r of rows) ctx.hub.dropToken(r.token);
}

async function sendCode(
  ctx: AppContext,
  req: FastifyRequest,
  fields: Record<string, string>,
  channel: Channel,
  address: string,
  areaInfo: { id: number; global_code: string } | null,
  purpose: Purpose,
) {
  const { db } = ctx;
  if (getBoolSetting(db, "register.captcha")) {
    const id = (fields.captcha_id ?? "").trim();
    const code = (fields.captcha_code ?? "").trim();
    if (!id || !code) throw new DomainError("accounts.captcha_required");
    if (!checkCaptcha(db, id, code)) throw new DomainError("accounts.captcha_invalid");
  }
  const existing = channel === "email" ? userByEmail(db, address) : userByMobile(db, address, areaInfo!.id);
  if (purpose === 1 && existing) throw new DomainError("accounts.already_registered");
  if (purpose === 2 && !existing) throw new DomainError("accounts.account_not_found");
  if (purpose === 2 && existing?.is_demo) throw new DomainError("demo_only_true_account");

  const rkey = recipientKey(channel, address, areaInfo?.id ?? null);
  const issued = db.transaction(() => {
    const wait = resendWaitSeconds(db, rkey);
    if (wait > 0) return { wait };
    return { wait: 0, ...createCode(db, channel, rkey, purpose) };
  })();
  if (issued.wait > 0 || !("code" in issued)) throw new DomainError("accounts.code_wait", CODE_FAIL, { seconds: issued.wait });

  const minutes = CODE_TTL_MS / 60_000;
  const body =
    channel === "email"
      ? translate(req.lang, "accounts.mail_body", { code: issued.code, minutes })
      : translate(req.lang, "accounts.sms_body", { code: issued.code, minutes });
  const delivered = await deliver(ctx, {
    channel,
    recipient: address,
    areaId: areaInfo?.id ?? null,
    to: channel === "email" ? address : `${areaInfo!.global_code}${address}`,
    purpose,
    code: issued.code,
    subject: channel === "email" ? translate(req.lang, purpose === 1 ? "accounts.mail_subject_register" : "accounts.mail_subject_reset") : null,
    body,
  });
  if (!delivered) {
    discardCode(db, issued.id);
    throw new DomainError("accounts.send_failed");
  }
  return ctx.ok(req, { resend_in: RESEND_MS / 1000, expires_in: CODE_TTL_MS / 1000 }, "accounts.code_sent");
}

function demoInitialMicro(db: DB): number {
  try {
    const d = new Decimal(getSetting(db, "demo.initial_balance") ?? "10000");
    if (d.isFinite() && d.gte(0)) return d.mul(MICRO).toDecimalPlaces(0, Decimal.ROUND_DOWN).toNumber();
  } catch {
    /* fall through to the default */
  }
  return 10_000 * MICRO;
}

export function registerAccountsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  route(app, api.captcha, async (req) => ctx.ok(req, createCaptcha(db)));

  route(app, api.sendEmail, async (req) => {
    const f = parseFields(z.object({ to: required(), type: purposeField() }), fieldsOf(req));
    const email = normaliseEmail(f.to);
    if (!isEmail(email)) throw new DomainError("accounts.invalid_email");
    return sendCode(ctx, req, fieldsOf(req), "email", email, null, f.type);
  });

  route(app, api.sendSms, async (req) => {
    const f = parseFields(z.object({ to: required(), area_id: required(), type: purposeField() }), fieldsOf(req));
    const mobile = normaliseMobile(f.to);
    if (!mobile) throw new DomainError("accounts.invalid_mobile");
    const a = area(db, f.area_id);
    if (!a) throw new DomainError("accounts.invalid_area");
    return sendCode(ctx, req, fieldsOf(req), "sms", mobile, a, f.type);
  });

  route(app, api.register, async (req) => {
    const fields = fieldsOf(req);
    const type = identityType(fields.type, fields.account ?? fields.mobile);
    const f = parseFields(
      z.object({
        account: type === "email" ? required() : optional(),
        mobile: optional(),
        area_id: type === "mobile" ? required() : optional(),
        password: password(),
        re_password: z.string({ required_error: "@missing" }).min(1, "@missing"),
        sms_code: optional(),
        invite_code: optional(),
        key: optional(),
      }),
      fields,
    );
    let channel: Channel;
    let address: string;
    let areaInfo: { id: number; global_code: string } | null = null;
    if (type === "email") {
      channel = "email";
      address = normaliseEmail(f.account!);
      if (!isEmail(address)) throw new DomainError("accounts.invalid_email");
    } else {
      channel = "sms";
      const raw = f.mobile ?? f.account;
      if (!raw) throw new DomainError("invalid_input", CODE_FAIL, { field: "mobile" });
      const m = normaliseMobile(raw);
      if (!m) throw new DomainError("accounts.invalid_mobile");
      address = m;
      areaInfo = area(db, f.area_id);
      if (!areaInfo) throw new DomainError("accounts.invalid_area");
    }
    if (f.password !== f.re_password) throw new DomainError("accounts.password_inconsistency");
    if (!f.sms_code) throw new DomainError("accounts.code_required");
    let inviter: UserRecord | undefined;
    if (f.invite_code) {
      inviter = userByInviteCode(db, f.invite_code);
      if (!inviter || inviter.is_demo) throw new DomainError("accounts.invite_invalid");
    }
    const exists = () => (channel === "email" ? userByEmail(db, address) : userByMobile(db, address, areaInfo!.id));
    if (exists()) throw new DomainError("accounts.already_registered");

    const hash = await hashPassword(f.password);
    const rkey = recipientKey(channel, address, areaInfo?.id ?? null);
    const result = db.transaction(() => {
      if (exists()) return "exists" as const;
      const check = consumeCode(db, rkey, 1, f.sms_code!);
      if (check !== "ok") return check;
      db.prepare(
        "INSERT INTO users (uid, email, mobile, area_id, password_hash, invite_code, invited_by, is_demo, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
      ).run(newUid(db), channel === "email" ? address : null, channel === "sms" ? address : null, areaInfo?.id ?? null, hash, newInviteCode(db), inviter?.id ?? null, Date.now());
      return "ok" as const;
    })();
    if (result === "exists") throw new DomainError("accounts.already_registered");
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
    return ctx.ok(req, null, "accounts.register_ok");
  });

  route(app, api.loginForU, async (req) => {
    const fields = fieldsOf(req);
    const demoId = (fields.demo_id ?? "").trim();
    if (demoId) {
      const u = /^[0-9a-f]{32}$/.test(demoId) ? userByDemoId(db, demoId) : undefined;
      if (!u) throw new DomainError("accounts.login_failed");
      const token = issueToken(db, u.id, ctx.config.tokenTtlSeconds);
      return ctx.ok(req, { token, user: loginView(u) }, "accounts.login_ok");
    }
    const f = parseFields(z.object({ account: required(), password: z.string({ required_error: "@missing" }).min(1, "@missing"), area_id: optional() }), fields);
    const type = identityType(fields.login_type, f.account);
    let user: UserRecord | undefined;
    let norm: string;
    if (type === "email") {
      norm = normaliseEmail(f.account);
      user = userByEmail(db, norm);
    } else {
      norm = normaliseMobile(f.account) ?? f.account;
      const a = f.area_id ? area(db, f.area_id) : null;
      if (f.area_id && !a) throw new DomainError("accounts.invalid_area");
      user = normaliseMobile(f.account) ? userByMobile(db, norm, a?.id ?? null) : undefined;
    }
    const throttleKey = `${type}:${norm}|${req.ip}`;
    if (ctx.config.rateLimit) {
      const minutes = loginLockedMinutes(db, throttleKey);
      if (minutes > 0) throw new DomainError("accounts.login_locked", CODE_RATE_LIMITED, { minutes });
    }
    const good = await verifyPassword(user?.is_demo ? null : user?.password_hash, f.password);
    if (!good || !user) {
      if (ctx.config.rateLimit) recordLoginFailure(db, throttleKey);
      throw new DomainError("accounts.login_failed");
    }
    clearLoginFailures(db, throttleKey);
    const token = issueToken(db, user.id, ctx.config.tokenTtlSeconds);
    return ctx.ok(req, { token, user: loginView(user) }, "accounts.login_ok");
  });

  // State changes are POST only; the spec's GET answers a refusal and creates nothing.
  app.get("/api/user/createAccountDemoForU", { schema: { hide: true } }, async (req, reply) => {
    reply.status(405).header("allow", "POST");
    return { code: CODE_FAIL, msg: translate(req.lang, "method_not_allowed"), data: null };
  });

  route(app, api.createAccountDemoForU, async (req) => {
    const demoId = crypto.randomBytes(16).toString("hex");
    const amount = demoInitialMicro(db);
    db.transaction(() => {
      const r = db
        .prepare("INSERT INTO users (uid, invite_code, is_demo, demo_id, created_at) VALUES (?, ?, 1, ?, ?)")
        .run(newUid(db), newInviteCode(db), demoId, Date.now());
      ctx.money.post({ userId: Number(r.lastInsertRowid), amountMicro: amount, kind: "demo_initial", ref: "demo" });
    })();
    return ctx.ok(req, { demo_id: demoId }, "accounts.demo_created");
  });

  route(app, api.userInfo, async (req) => {
    const u = requireUser(db, req);
    return ctx.ok(req, { id: u.id, uid: u.uid, email: u.email, mobile: u.mobile, is_demo: u.is_demo, invite_code: u.invite_code, area_id: u.area_id });
  });

  route(app, api.getBalance, async (req) => {
    const u = requireUser(db, req);
    return ctx.ok(req, { balance: microToNumber(u.balance_micro), lock_balance: microToNumber(u.lock_balance_micro) });
  });

  route(app, api.amendPassword, async (req) => {
    const me = requireUser(db, req);
    if (me.is_demo) throw new DomainError("demo_only_true_account");
    const fields = fieldsOf(req);
    const f = parseFields(z.object({ new_password: password(), re_password: z.string().optional(), auth_code: optional(), type: optional() }), fields);
    if (f.re_password !== undefined && f.re_password !== "" && f.re_password !== f.new_password) throw new DomainError("accounts.password_inconsistency");
    if (!f.auth_code) throw new DomainError("accounts.code_required");
    const t = (f.type ?? "").toLowerCase();
    const useMobile = t === "mobile" || (t !== "email" && !me.email && !!me.mobile);
    if (useMobile ? !me.mobile : !me.email) throw new DomainError("invalid_input", CODE_FAIL, { field: "type" });
    const rkey = useMobile ? recipientKey("sms", me.mobile!, me.area_id) : recipientKey("email", me.email!, null);
    const hash = await hashPassword(f.new_password);
    const current = tokenOf(req);
    const result = db.transaction(() => {
      const check = consumeCode(db, rkey, 2, f.auth_code!);
      if (check !== "ok") return check;
      db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hash, me.id);
      return "ok" as const;
    })();
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
    revokeOtherTokens(ctx, me.id, current);
    return ctx.ok(req, null, "accounts.password_changed");
  });

  route(app, api.forgetPassword, async (req) => {
    const fields = fieldsOf(req);
    const f = parseFields(
      z.object({
        account: required(),
        area_id: optional(),
        new_password: password(),
        secondary_password: z.string({ required_error: "@missing" }).min(1, "@missing"),
        auth_code: optional(),
      }),
      fields,
    );
    const type = identityType(fields.type, f.account);
    if (f.new_password !== f.secondary_password) throw new DomainError("accounts.password_inconsistency");
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
      const a = f.area_id ? area(db, f.area_id) : null;
      if (f.area_id && !a) throw new DomainError("accounts.invalid_area");
      user = userByMobile(db, m, a?.id ?? null);
      rkey = recipientKey("sms", m, user?.area_id ?? a?.id ?? null);
    }
    if (!user) throw new DomainError("accounts.account_not_found");
    if (user.is_demo) throw new DomainError("demo_only_true_account");
    const hash = await hashPassword(f.new_password);
    const uid = user.id;
    const result = db.transaction(() => {
      const check = consumeCode(db, rkey, 2, f.auth_code!);
      if (check !== "ok") return check;
      db.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hash, uid);
      return "ok" as const;
    })();
    if (result !== "ok") throw new DomainError(checkFailureKey(result));
    revokeOtherTokens(ctx, uid, null);
    return ctx.ok(req, null, "accounts.password_reset");
  });

  route(app, api.logout, async (req) => {
    requireUser(db, req);
    const token = tokenOf(req)!;
    revokeToken(db, token);
    ctx.hub.dropToken(token);
    return ctx.ok(req, null, "accounts.logout_ok");
  });

}
