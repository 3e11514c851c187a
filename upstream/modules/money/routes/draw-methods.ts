/**
 * The wallet's payout destinations (upstream/API.md "Money"): a user's crypto addresses and bank
 * accounts, bound and deleted. The DrawMethods service checks them; these routes read the fields
 * and shape the answers.
 */
import { securityOf } from "../../identity/security-routes.js";
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/finance";
import { DRAW_TYPE } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import type { z } from "zod";
import { route } from "../../../platform/http/route.js";
import { DrawMethods, type BindRequest, type DrawMethod } from "../draw-methods.js";
import { extras, realUser } from "./shared.js";

const methodView = (m: DrawMethod): api.DrawMethod => ({
  id: m.id,
  type: m.type,
  dc_address: m.dcAddress,
  bank_name: m.bankName,
  bank_address: m.bankAddress,
  bank_swift: m.bankSwift,
  payee_name: m.payeeName,
  payee_account: m.payeeAccount,
  remark: m.remark,
  draw_currency: { id: m.drawCurrencyId, code: m.currencyCode, protocol: m.protocol },
});

/** A destination's fields: its type and currency, then the address or the bank account. */
function bindRequest(body: z.output<typeof api.bindDrawMethod.body>): BindRequest {
  const drawCurrencyId = body.draw_id;
  if (body.type === DRAW_TYPE.ADDRESS)
    return { type: DRAW_TYPE.ADDRESS, drawCurrencyId, address: body.dc_address ?? "" };
  return {
    type: DRAW_TYPE.BANK,
    drawCurrencyId,
    bankName: body.bank_name ?? "",
    bankAddress: body.bank_address ?? "",
    bankSwift: body.bank_swift ?? "",
    payeeName: body.payee_name ?? "",
    payeeAccount: body.payee_account ?? "",
    remark: body.remark || null,
  };
}

export function registerDrawMethodRoutes(app: FastifyInstance, ctx: AppContext): void {
  const methods = new DrawMethods(ctx.db);

  route(
    app,
    api.getDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      const { draw_type: type, draw_id: currency } = req.query;
      const list = methods
        .list(u.id, type)
        .filter((m) => currency === undefined || m.drawCurrencyId === currency);
      return ctx.ok(req, list.map(methodView));
    },
    extras,
  );
  route(
    app,
    api.bindDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      await securityOf(ctx).requireCodeIfOn(u.id, req.body.totp_code);
      return ctx.ok(req, methodView(methods.bind(u.id, bindRequest(req.body))), "wallet_bound");
    },
    extras,
  );
  route(
    app,
    api.delDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      methods.remove(u.id, req.body.id);
      return ctx.ok(req, null, "wallet_deleted");
    },
    extras,
  );
}
