/**
 * Security routes (upstream/API.md "Security", @contract/api/security): two-factor sign-in (status,
 * set-up, turning on and off, backup codes) and the account's sessions. The second step of a
 * sign-in is registered with the other sign-in routes (routes.ts). Real accounts only; the fields
 * arrive checked by the contract's schemas.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import * as api from "@contract/api/security";
import type { AppContext } from "../../platform/context.js";
import { secretKeyDir } from "../../platform/config.js";
import { requireUser, tokenOf, type SignInOrigin } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { DEFAULT_LANG, translate } from "../../platform/i18n.js";
import { DomainError } from "../../platform/errors.js";
import { writeAudit } from "../operators/audit.js";
import { deliverNotice } from "../../platform/mail/outbox.js";
import { loadSecretKey } from "../../platform/secret-box.js";
import { verifyPassword } from "./passwords.js";
import { AccountSecurity, type NewDeviceSignIn } from "./security.js";
import { userById } from "./store.js";

const keys = new WeakMap<AppContext, Buffer>();

/** The key that seals stored secrets (operators' and users' TOTP), read or made at first use. */
export function sealingKeyOf(ctx: AppContext): Buffer {
  let k = keys.get(ctx);
  if (!k)
    keys.set(ctx, (k = loadSecretKey(ctx.config.operatorSecretKey, secretKeyDir(ctx.config))));
  return k;
}

const services = new WeakMap<AppContext, AccountSecurity>();

/** The account-safety service of an upstream (one per context). */
export function securityOf(ctx: AppContext): AccountSecurity {
  let s = services.get(ctx);
  if (!s)
    services.set(
      ctx,
      (s = new AccountSecurity({
        db: ctx.db,
        limits: ctx.limits,
        sealingKey: () => sealingKeyOf(ctx),
        tokenTtlSeconds: ctx.config.tokenTtlSeconds,
        tokenIdleSeconds: ctx.config.tokenIdleSeconds,
        endSessions: (hashes) => {
          for (const h of hashes) ctx.hub.dropTokenHash(h);
        },
        announceNewDevice: (n) => announceNewDevice(ctx, n),
      })),
    );
  return s;
}

/** Where a request signs in from: its client's address and User-Agent. */
export function originOf(req: FastifyRequest): SignInOrigin {
  const ua = req.headers["user-agent"];
  return { ip: req.ip ?? null, userAgent: typeof ua === "string" ? ua.slice(0, 512) : null };
}

/** E-mails the account (when it has an address) of a sign-in from a device it had not used. */
function announceNewDevice(ctx: AppContext, n: NewDeviceSignIn): void {
  if (!n.user.email) return;
  const lang = n.lang;
  const where = ctx.config.webUrl
    ? `${ctx.config.webUrl}/mine/security`
    : translate(lang, "security.new_device_where");
  const body = translate(lang, "security.new_device_body", {
    time: new Date(n.at).toISOString().slice(0, 16).replace("T", " ") + " UTC",
    device: n.device || "?",
    ip: n.ip || "?",
    where,
  });
  void deliverNotice(ctx, {
    to: n.user.email,
    subject: translate(lang, "security.new_device_subject"),
    body,
  }).catch((err) => ctx.log.error({ err }, "new-device notice failed"));
}

/**
 * Support's reset of a user's two-factor sign-in, carried out when a second operator approves it
 * (operators' four-eyes request "two_factor.reset"): two-factor off, every session ended, the audit
 * row naming the request, and the user told by e-mail (when the account has an address).
 */
export function resetTwoFactorBySupport(
  ctx: AppContext,
  p: { userId: number; actor: string; requestId: number; note: string | null },
): { uid: string } {
  const user = userById(ctx.db, p.userId);
  if (!user) throw new DomainError("not_found");
  const security = securityOf(ctx);
  if (!security.isOn(user.id)) throw new DomainError("security.two_factor_off");
  security.reset(user.id);
  writeAudit(ctx.db, {
    actor: p.actor,
    action: "user.two_factor_reset",
    target: `user:${user.id}`,
    userId: user.id,
    remark: p.note,
    requestId: p.requestId,
  });
  if (user.email) {
    const lang = DEFAULT_LANG;
    void deliverNotice(ctx, {
      to: user.email,
      subject: translate(lang, "security.reset_subject"),
      body: translate(lang, "security.reset_body", { uid: user.uid }),
    }).catch((err) => ctx.log.error({ err }, "two-factor reset notice failed"));
  }
  return { uid: user.uid };
}

export function registerSecurityRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const security = securityOf(ctx);

  route(app, api.twoFactorStatus, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, security.status(me));
  });

  route(app, api.twoFactorSetup, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, security.setup(me), "security.two_factor_setup_ok");
  });

  route(app, api.twoFactorEnable, async (req) => {
    const me = requireUser(db, req);
    const codes = await security.enable(me.id, req.body.code);
    return ctx.ok(req, { backup_codes: codes }, "security.two_factor_enabled");
  });

  route(app, api.twoFactorDisable, async (req) => {
    const me = requireUser(db, req);
    await security.disable(me.id, req.body.code, async () =>
      verifyPassword(userById(db, me.id)?.password_hash, req.body.password),
    );
    return ctx.ok(req, null, "security.two_factor_disabled");
  });

  route(app, api.twoFactorBackupCodes, async (req) => {
    const me = requireUser(db, req);
    const codes = await security.renewBackupCodes(me.id, req.body.code);
    return ctx.ok(req, { backup_codes: codes }, "security.backup_codes_renewed");
  });

  route(app, api.sessionList, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, security.sessions(me.id, tokenOf(req)));
  });

  route(app, api.sessionEnd, async (req) => {
    const me = requireUser(db, req);
    security.endSession(me.id, req.body.id);
    return ctx.ok(req, null, "security.session_ended");
  });

  route(app, api.sessionEndOthers, async (req) => {
    const me = requireUser(db, req);
    const ended = security.endOthers(me.id, tokenOf(req)!);
    return ctx.ok(req, { ended }, "security.sessions_ended");
  });
}
