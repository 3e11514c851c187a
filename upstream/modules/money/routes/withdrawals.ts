/**
 * Withdrawals (upstream/API.md "Money"): the currencies one can withdraw in, a request (the amount
 * moves from balance to lock_balance until reviewed), its cancellation and the history of a type.
 * The Withdrawals service (ctx.withdrawals) decides; these routes read the fields and shape the
 * answers.
 */
import { securityOf } from "../../identity/security-routes.js";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import * as api from "@contract/api/finance";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { translate, type Lang } from "../../../platform/i18n.js";
import { wireTime } from "../../../platform/wire.js";
import type { DrawCurrency, DrawRecord, DrawRequest } from "../withdrawals.js";
import { amountMicro, extras, idemKey, realUser, usd } from "./shared.js";

const currencyView = (c: DrawCurrency): api.DrawCurrency => ({
  id: c.id,
  type: c.type,
  code: c.code,
  protocol: c.protocol,
  draw_rate: Number(c.drawRate),
  fee_type: c.feeType,
  usd_price: Number(c.usdPrice),
  min: usd(c.minMicro),
  max: usd(c.maxMicro),
});

const drawView = (lang: Lang, d: DrawRecord): api.DrawRecord => ({
  id: d.id,
  number: usd(d.amountMicro),
  real_number: d.net,
  fee: usd(d.feeMicro),
  draw_currency: { id: d.currency.id, code: d.currency.code, protocol: d.currency.protocol },
  status: d.status,
  status_name: translate(lang, `withdraw_status_${d.status}`),
  remark: d.remark,
  created_at: wireTime(d.createdAt),
  type: d.type,
  address: d.address,
  payee_account: d.payeeAccount,
  notes: d.memo,
});

/** A request's fields: the currency, the amount (USD), the destination and a memo. */
const drawRequest = (body: z.output<typeof api.draw.body>): DrawRequest => ({
  drawCurrencyId: body.draw_currency_id,
  amountMicro: amountMicro(body.number),
  drawMethodId: body.draw_method_id,
  memo: body.memo || null,
});

export function registerWithdrawalRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { withdrawals } = ctx;

  route(
    app,
    api.drawSymbolList,
    async (req) => {
      realUser(ctx, req);
      return ctx.ok(req, withdrawals.currencies(req.query.type).map(currencyView));
    },
    extras,
  );
  route(
    app,
    api.draw,
    async (req) => {
      const u = realUser(ctx, req);
      const r = drawRequest(req.body);
      const key = idemKey(req, req.body);
      // A replay answers what its first request made; a new request needs its code (two-factor on).
      if (!withdrawals.replayOf(u.id, r, key))
        await securityOf(ctx).requireCodeIfOn(u.id, req.body.totp_code);
      const d = withdrawals.request(u.id, r, key);
      return ctx.ok(req, drawView(req.lang, d), "withdraw_requested");
    },
    extras,
  );
  route(
    app,
    api.drawCancel,
    async (req) => {
      const u = realUser(ctx, req);
      const d = withdrawals.cancel(u.id, req.body.id, idemKey(req, req.body));
      return ctx.ok(req, drawView(req.lang, d), "withdraw_cancelled");
    },
    extras,
  );
  route(
    app,
    api.drawList,
    async (req) => {
      const u = realUser(ctx, req);
      const { type, page } = req.query;
      const { items, total } = withdrawals.list(u.id, type, page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map((d) => drawView(req.lang, d)), total });
    },
    extras,
  );
}
