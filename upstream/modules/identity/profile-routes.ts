/**
 * Profile routes (upstream/API.md "Profile", @contract/api/profile): the password-change code sent
 * to the signed-in account's own address, binding an e-mail to an account without one, and the
 * invite figures. Demo accounts are refused before the fields are read (the endpoints are
 * `realAccount`, product-spec.md section 6); the fields arrive checked by the contract's schemas.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/profile";
import type { AppContext } from "../../platform/context.js";
import { requireUser, requireUserRow } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { addressSubject } from "../../platform/limits.js";
import type { IdentityService } from "./service.js";

export function registerProfileRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  identity: IdentityService,
): void {
  route(app, api.sendOwnCode, async (req) => {
    const me = await requireUserRow(ctx.db, req);
    const sent = await identity.sendOwnCode(req.lang, me, req.body.type, addressSubject(req.ip));
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.sendBindEmailCode, async (req) => {
    const me = await requireUserRow(ctx.db, req);
    const sent = await identity.sendBindEmailCode(
      req.lang,
      me,
      req.body.email,
      addressSubject(req.ip),
    );
    return ctx.ok(req, sent, "accounts.code_sent");
  });

  route(app, api.bindEmail, async (req) => {
    const me = await requireUserRow(ctx.db, req);
    await identity.bindEmail(me, req.body.email, req.body.auth_code);
    return ctx.ok(req, null, "account.email_bound");
  });

  route(app, api.inviteInfo, async (req) => {
    const me = requireUser(ctx.db, req);
    return ctx.ok(req, identity.inviteInfo(me));
  });
}
