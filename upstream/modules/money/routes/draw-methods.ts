/**
 * The wallet's payout destinations (upstream/API.md "Money"): a user's crypto addresses and bank
 * accounts, bound and deleted. The DrawMethods service checks them; these routes read the fields
 * and shape the answers.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/finance";
import { DRAW_TYPE } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import { route, type Fields } from "../../../platform/http/route.js";
import { DrawMethods, type BindRequest, type DrawMethod } from "../draw-methods.js";
import { drawType, extras, int, realUser } from "./shared.js";

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
function bindRequest(body: Fields): BindRequest {
  const type = drawType(body.type, "type");
  const drawCurrencyId = int(body.draw_id, "draw_id");
  const s = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
  if (type === DRAW_TYPE.ADDRESS)
    return { type: DRAW_TYPE.ADDRESS, drawCurrencyId, address: s("dc_address") };
  return {
    type: DRAW_TYPE.BANK,
    drawCurrencyId,
    bankName: s("bank_name"),
    bankAddress: s("bank_address"),
    bankSwift: s("bank_swift"),
    payeeName: s("payee_name"),
    payeeAccount: s("payee_account"),
    remark: s("remark") || null,
  };
}

/** An optional currency filter: null when absent. */
const currencyFilter = (raw: unknown) =>
  raw === undefined || raw === "" ? null : int(raw, "draw_id");

export function registerDrawMethodRoutes(app: FastifyInstance, ctx: AppContext): void {
  const methods = new DrawMethods(ctx.db);

  route(
    app,
    api.getDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      const type = drawType(req.query.draw_type, "draw_type");
      const currency = currencyFilter(req.query.draw_id);
      const list = methods
        .list(u.id, type)
        .filter((m) => currency === null || m.drawCurrencyId === currency);
      return ctx.ok(req, list.map(methodView));
    },
    extras,
  );
  route(
    app,
    api.bindDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      return ctx.ok(req, methodView(methods.bind(u.id, bindRequest(req.body))), "wallet_bound");
    },
    extras,
  );
  route(
    app,
    api.delDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      methods.remove(u.id, int(req.body.id, "id"));
      return ctx.ok(req, null, "wallet_deleted");
    },
    extras,
  );
}
