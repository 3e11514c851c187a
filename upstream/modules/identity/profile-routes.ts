/**
 * Profile routes (upstream/API.md "Profile", @contract/api/profile): the password-change code sent
 * to the signed-in account's own address, binding an e-mail to an account without one, and the
 * invite figures. Demo accounts are refused (product-spec.md section 6).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/profile";
import type { AppContext } from "../../platform/context.js";
import { DomainError } from "../../platform/errors.js";
import { requireUser, type UserRow } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { addressSubject } from "../../platform/limits.js";
import { fieldsOf, optional, parseFields, required } from "../../platform/http/fields.js";
import type { IdentityService } from "./service.js";

/** The signed-in real account, or the demo refusal. */
function realUser(ctx: AppContext, req: FastifyRequest): UserRow {
  const me = requireUser(ctx.db, req);
  if (me.is_demo) throw new DomainError("demo_only_true_account");
  return me;
}

export function registerProfileRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  identity: IdentityService,
): void {
  route(app, api.sendOwnCode, async (req) => {
    const me = realUser(ctx, req);
    const f = parseFields(
      z.object({
        type: optional().refine(
          (v) => v === undefined || v === "email" || v === "mobile",
          "accounts.type_invalid",
        ),
      }),
      fieldsOf(req),
    );
    const type = f.type as "email" | "mobile" | undefined;
    const sent = await identity.sendOwnCode(req.lang, me, type, addressSubject(req.ip));
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.sendBindEmailCode, async (req) => {
    const me = realUser(ctx, req);
    const f = parseFields(z.object({ email: required() }), fieldsOf(req));
    const sent = await identity.sendBindEmailCode(req.lang, me, f.email, addressSubject(req.ip));
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.bindEmail, async (req) => {
    const me = realUser(ctx, req);
    const f = parseFields(z.object({ email: required(), auth_code: required() }), fieldsOf(req));
    await identity.bindEmail(me, f.email, f.auth_code);
    return ctx.ok(req, null, "account.email_bound");
  });

  route(app, api.inviteInfo, async (req) => {
    const me = realUser(ctx, req);
    return ctx.ok(req, identity.inviteInfo(me));
  });
}
