/**
 * Trading API of the reference upstream (upstream/API.md, "Trading"): submit, my_deal, close,
 * cancel_trade, set_stop_price, forexDetail, resetForexDemoAccount. State changes are POST only;
 * reads are GET and accept (and ignore) the client's `t` timestamp. Each route is the contract's
 * endpoint (@contract/api/trading), whose schema has validated every field before the handler runs;
 * the handler hands them to the engine as its inputs (requests.ts) and maps its domain answer to the
 * wire shape (views.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import * as api from "@contract/api/trading";
import { ORDER_STATUS } from "@contract/enums";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { CODE_FAIL } from "../../platform/errors.js";
import { translate } from "../../platform/i18n.js";
import { route } from "../../platform/http/route.js";
import { idempotencyKeyOf } from "../../platform/http/params.js";
import { orderRequestOf, stopOf, trailOf } from "./requests.js";
import { dec } from "../money/decimal.js";
import { accountView, dealPageView, orderView } from "./views.js";

/** The client's idempotency key: the `Idempotency-Key` header, or the form field `idempotency_key`. */
const idemKey = (req: FastifyRequest, p: unknown) =>
  idempotencyKeyOf(req, p, "trade_invalid_field");

/** A malformed field of these routes answers "Invalid value: FIELD". */
const extras = { invalidFieldKey: "trade_invalid_field" };

export function registerTradingRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Every command goes through the sequencer: answered once its batch is durable.
  const { engine, sequencer: seq } = ctx;

  route(
    app,
    api.submit,
    async (req) => {
      const u = requireUser(ctx.db, req);
      // Counted before the engine sees the order, so a script cannot flood it (platform/limits.ts).
      const who = String(u.id);
      await ctx.limits.consume(["order_second", who], ["order_minute", who]);
      const request = orderRequestOf(req.body);
      const key = idemKey(req, req.body);
      await engine.prefetchKey(u.id, key);
      const order = await seq.run(() => engine.submit(u.id, request, key));
      return ctx.ok(
        req,
        orderView(order, req.lang),
        order.status === ORDER_STATUS.PENDING ? "pending_placed" : "order_placed",
      );
    },
    extras,
  );

  route(
    app,
    api.myDeal,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const q = req.query;
      return ctx.ok(req, dealPageView(engine.listOrders(u.id, q.status, q.page), req.lang));
    },
    extras,
  );

  route(
    app,
    api.close,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const key = idemKey(req, req.body);
      await engine.prefetchKey(u.id, key);
      const lots = req.body.lots === undefined ? null : dec(req.body.lots);
      const closed = await seq.run(() =>
        engine.close(u.id, req.body.id, key, "manual", undefined, lots),
      );
      const msg = closed.parentId === null ? "order_closed" : "order_closed_part";
      return ctx.ok(req, orderView(closed, req.lang), msg);
    },
    extras,
  );

  route(
    app,
    api.cancelTrade,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const key = idemKey(req, req.body);
      await engine.prefetchKey(u.id, key);
      const cancelled = await seq.run(() => engine.cancel(u.id, req.body.id, key));
      return ctx.ok(req, orderView(cancelled, req.lang), "order_cancelled");
    },
    extras,
  );

  route(
    app,
    api.setStopPrice,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const b = req.body;
      const [tp, sl] = [stopOf(b.target_profit_price), stopOf(b.stop_loss_price)];
      const key = idemKey(req, b);
      await engine.prefetchKey(u.id, key);
      const order = await seq.run(() => engine.setStops(u.id, b.id, tp, sl, key));
      return ctx.ok(req, orderView(order, req.lang), "stops_updated");
    },
    extras,
  );

  route(
    app,
    api.setTrailing,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const b = req.body;
      const key = idemKey(req, b);
      await engine.prefetchKey(u.id, key);
      const order = await seq.run(() => engine.setTrailing(u.id, b.id, trailOf(b), key));
      return ctx.ok(req, orderView(order, req.lang), "trailing_updated");
    },
    extras,
  );

  route(
    app,
    api.forexDetail,
    async (req) => {
      const u = requireUser(ctx.db, req);
      return ctx.ok(req, accountView(engine.accountValues(u.id)));
    },
    extras,
  );

  route(
    app,
    api.resetForexDemoAccount,
    async (req) => {
      const u = requireUser(ctx.db, req);
      const key = idemKey(req, req.body);
      // The user's copies end first: their money returns and is then part of the reset.
      await seq.run(() => ctx.copies.stopForDemoReset(u.id));
      await engine.prefetchKey(u.id, key);
      const figures = await seq.run(() => engine.resetDemo(u.id, key));
      return ctx.ok(req, accountView(figures), "demo_reset_done");
    },
    extras,
  );

  // A GET never changes state: the state-changing calls answer GET with a refusal.
  for (const def of [
    api.submit,
    api.close,
    api.cancelTrade,
    api.setStopPrice,
    api.setTrailing,
    api.resetForexDemoAccount,
  ]) {
    app.get(def.path, { schema: { hide: true } }, async (req) => ({
      code: CODE_FAIL,
      msg: translate(req.lang, "method_not_allowed"),
      data: null,
    }));
  }
}
