/**
 * Identity routes (upstream/API.md, "Accounts"): captcha, verification codes (send_email, send_sms),
 * register, loginForU, demo accounts, user info and balance, password change and reset, logout.
 * Each route is the contract's endpoint (@contract/api/identity): it reads the request's fields
 * with their "Please complete" checks (platform/http/fields.ts), calls the identity service and
 * wraps its answer in the envelope.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/identity";
import { CODE } from "@contract/envelope";
import type { AppContext } from "../../platform/context.js";
import { DomainError } from "../../platform/errors.js";
import { requireUser, tokenOf } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { addressSubject } from "../../platform/limits.js";
import { translate } from "../../platform/i18n.js";
import { deliver } from "../../platform/mail/outbox.js";
import {
  fieldsOf,
  isEmail,
  normaliseEmail,
  normaliseMobile,
  optional,
  parseFields,
  password,
  required,
} from "../../platform/http/fields.js";
import type { Purpose } from "./codes.js";
import { createCaptcha } from "./captcha.js";
import { microToNumber } from "./views.js";
import { IdentityService, identityType } from "./service.js";
import { registerProfileRoutes } from "./profile-routes.js";

const purposeField = () =>
  required()
    .refine((v) => v === "1" || v === "2", "accounts.type_invalid")
    .transform((v) => Number(v) as Purpose);

/** A required field that is not trimmed (passwords). */
const untrimmed = () => z.string({ required_error: "@missing" }).min(1, "@missing");

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
  });

  const { limits } = ctx;
  registerProfileRoutes(app, ctx, identity);

  route(app, api.captcha, async (req) => {
    await limits.consume(["captcha_ip", addressSubject(req.ip)]);
    return ctx.ok(req, createCaptcha(db));
  });

  route(app, api.sendEmail, async (req) => {
    const fields = fieldsOf(req);
    const f = parseFields(z.object({ to: required(), type: purposeField() }), fields);
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
        id: fields.captcha_id,
        code: fields.captcha_code,
      },
    );
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.sendSms, async (req) => {
    const fields = fieldsOf(req);
    const f = parseFields(
      z.object({ to: required(), area_id: required(), type: purposeField() }),
      fields,
    );
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
      {
        id: fields.captcha_id,
        code: fields.captcha_code,
      },
    );
    return ctx.ok(req, sent, "accounts.code_sent");
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
        re_password: untrimmed(),
        sms_code: optional(),
        invite_code: optional(),
        key: optional(),
      }),
      fields,
    );
    await identity.register(type, f, addressSubject(req.ip));
    return ctx.ok(req, null, "accounts.register_ok");
  });

  route(app, api.loginForU, async (req) => {
    const fields = fieldsOf(req);
    const demoId = (fields.demo_id ?? "").trim();
    if (demoId) return ctx.ok(req, identity.loginDemo(demoId), "accounts.login_ok");
    const f = parseFields(
      z.object({ account: required(), password: untrimmed(), area_id: optional() }),
      fields,
    );
    const type = identityType(fields.login_type, f.account);
    return ctx.ok(req, await identity.login(type, f, addressSubject(req.ip)), "accounts.login_ok");
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
    const u = requireUser(db, req);
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
    const u = requireUser(db, req);
    return ctx.ok(req, {
      balance: microToNumber(u.balance_micro),
      lock_balance: microToNumber(u.lock_balance_micro),
    });
  });

  route(app, api.amendPassword, async (req) => {
    const me = requireUser(db, req);
    if (me.is_demo) throw new DomainError("demo_only_true_account");
    const f = parseFields(
      z.object({
        new_password: password(),
        re_password: z.string().optional(),
        auth_code: optional(),
        type: optional(),
      }),
      fieldsOf(req),
    );
    await identity.amendPassword(me, f, tokenOf(req));
    return ctx.ok(req, null, "accounts.password_changed");
  });

  route(app, api.forgetPassword, async (req) => {
    const fields = fieldsOf(req);
    const f = parseFields(
      z.object({
        account: required(),
        area_id: optional(),
        new_password: password(),
        secondary_password: untrimmed(),
        auth_code: optional(),
      }),
      fields,
    );
    await identity.forgetPassword(identityType(fields.type, f.account), f);
    return ctx.ok(req, null, "accounts.password_reset");
  });

  route(app, api.logout, async (req) => {
    requireUser(db, req);
    identity.logout(tokenOf(req)!);
    return ctx.ok(req, null, "accounts.logout_ok");
  });
}
