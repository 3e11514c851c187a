/**
 * Identity routes (upstream/API.md, "Accounts"): captcha, verification codes (send_email, send_sms),
 * register, loginForU, demo accounts, user info and balance, password change and reset, logout.
 * Each route is the contract's endpoint (@contract/api/identity), whose schema has checked and
 * typed the request's fields (required ones, password length, type, area id); the route calls the
 * identity service with them and wraps its answer in the envelope.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/identity";
import { CODE } from "@contract/envelope";
import type { AppContext } from "../../platform/context.js";
import { DomainError } from "../../platform/errors.js";
import { requireUser, requireUserRow, tokenOf } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { addressSubject } from "../../platform/limits.js";
import { translate } from "../../platform/i18n.js";
import { deliver } from "../../platform/mail/outbox.js";
import { isEmail, normaliseEmail, normaliseMobile } from "./addresses.js";
import { createCaptcha } from "./captcha.js";
import { microToNumber } from "./views.js";
import { IdentityService, identityType } from "./service.js";
import { registerProfileRoutes } from "./profile-routes.js";
import { originOf, registerSecurityRoutes, securityOf } from "./security-routes.js";
import * as api2fa from "@contract/api/security";

export function registerAccountsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const identity = new IdentityService({
    db,
    money: ctx.money,
    tokenTtlSeconds: ctx.config.tokenTtlSeconds,
    tokenIdleSeconds: ctx.config.tokenIdleSeconds,
    resendMs: ctx.config.codeResendSeconds * 1000,
    limits: ctx.limits,
    deliver: (m) => deliver(ctx, m),
    endSessions: (hashes) => {
      for (const h of hashes) ctx.hub.dropTokenHash(h);
    },
    security: securityOf(ctx),
  });

  const { limits } = ctx;
  registerProfileRoutes(app, ctx, identity);
  registerSecurityRoutes(app, ctx);

  route(app, api.captcha, async (req) => {
    await limits.consume(["captcha_ip", addressSubject(req.ip)]);
    return ctx.ok(req, createCaptcha(db));
  });

  route(app, api.sendEmail, async (req) => {
    const f = req.body;
    const email = normaliseEmail(f.to);
    if (!isEmail(email)) throw new DomainError("accounts.invalid_email");
    const sent = await identity.sendCode(
      req.lang,
      "email",
      email,
      null,
      f.type,
      addressSubject(req.ip),
      {
        id: f.captcha_id,
        code: f.captcha_code,
      },
    );
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.sendSms, async (req) => {
    const f = req.body;
    const mobile = normaliseMobile(f.to);
    if (!mobile) throw new DomainError("accounts.invalid_mobile");
    const area = identity.area(f.area_id);
    if (!area) throw new DomainError("accounts.invalid_area");
    const sent = await identity.sendCode(
      req.lang,
      "sms",
      mobile,
      area,
      f.type,
      addressSubject(req.ip),
      { id: f.captcha_id, code: f.captcha_code },
    );
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.register, async (req) => {
    const f = req.body;
    const type = identityType(f.type, f.account ?? f.mobile);
    await identity.register(type, f, addressSubject(req.ip));
    return ctx.ok(req, null, "accounts.register_ok");
  });

  route(app, api.loginForU, async (req) => {
    const f = req.body;
    const session = f.demo_id
      ? identity.loginDemo(f.demo_id, originOf(req))
      : await identity.login(f, addressSubject(req.ip), originOf(req), req.lang);
    const msg = "second_factor" in session ? "security.two_factor_needed" : "accounts.login_ok";
    return ctx.ok(req, session, msg);
  });

  route(app, api2fa.loginSecondFactor, async (req) => {
    const session = await identity.loginSecondFactor(req.body, originOf(req), req.lang);
    return ctx.ok(req, session, "accounts.login_ok");
  });

  // State changes are POST only; the spec's GET answers a refusal and creates nothing.
  app.get(api.createAccountDemoForU.path, { schema: { hide: true } }, async (req, reply) => {
    reply.status(405).header("allow", "POST");
    return { code: CODE.FAIL, msg: translate(req.lang, "method_not_allowed"), data: null };
  });

  route(app, api.createAccountDemoForU, async (req) => {
    await limits.consume(["demo_ip", addressSubject(req.ip)]);
    return ctx.ok(req, { demo_id: identity.createDemo() }, "accounts.demo_created");
  });

  route(app, api.userInfo, async (req) => {
    const u = await requireUserRow(db, req);
    return ctx.ok(req, {
      id: u.id,
      uid: u.uid,
      email: u.email,
      mobile: u.mobile,
      is_demo: u.is_demo,
      invite_code: u.invite_code,
      area_id: u.area_id,
    });
  });

  route(app, api.getBalance, async (req) => {
    const u = await requireUserRow(db, req);
    return ctx.ok(req, {
      balance: microToNumber(u.balance_micro),
      lock_balance: microToNumber(u.lock_balance_micro),
    });
  });

  route(app, api.amendPassword, async (req) => {
    const me = await requireUserRow(db, req);
    await identity.amendPassword(me, req.body, tokenOf(req));
    return ctx.ok(req, null, "accounts.password_changed");
  });

  route(app, api.forgetPassword, async (req) => {
    await identity.forgetPassword(req.body);
    return ctx.ok(req, null, "accounts.password_reset");
  });

  route(app, api.logout, async (req) => {
    requireUser(db, req);
    identity.logout(tokenOf(req)!);
    return ctx.ok(req, null, "accounts.logout_ok");
  });
}
