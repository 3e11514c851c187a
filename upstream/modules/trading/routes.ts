/**
 * Trading API of the reference upstream (upstream/API.md, "Trading"): submit, my_deal, close,
 * cancel_trade, set_stop_price, forexDetail, resetForexDemoAccount. State changes are POST only;
 * reads are GET and accept (and ignore) the client's `t` timestamp. Each route declares its schema,
 * parses the raw fields into the engine's typed inputs (parse.ts), calls the engine (ctx.engine) and
 * maps its domain answer to the wire shape (views.ts).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../app.js";
import { requireUser } from "../../platform/http/auth.js";
import { DomainError, CODE_FAIL, CODE_INTERNAL } from "../../platform/errors.js";
import { translate } from "../../platform/i18n.js";
import { cacheBuster, field, fields, idempotencyHeader, tokenHeader } from "../../platform/http/schema.js";
import type { Engine } from "./engine.js";
import { intParam, parseDealQuery, parseOrderRequest, parseStop } from "./parse.js";
import { accountView, dealPageView, orderView } from "./views.js";

/** The client's idempotency key: the `Idempotency-Key` header, or the form field `idempotency_key`. */
function idemKey(req: FastifyRequest, p: Record<string, unknown>): string | null {
  const h = req.headers["idempotency-key"];
  const raw = typeof h === "string" && h.trim() !== "" ? h : typeof p.idempotency_key === "string" ? p.idempotency_key : "";
  const k = raw.trim();
  if (k === "") return null;
  if (k.length > 128 || !/^[\x21-\x7e]+$/.test(k)) throw new DomainError("trade_invalid_field", CODE_FAIL, { field: "Idempotency-Key" });
  return k;
}

const idempotencyField = { idempotency_key: field("the Idempotency-Key as a form field (the header wins)") };
const orderId = field("order Id");

const submitBody = fields({
  type: field("1 buy, 2 sell"),
  cont: field("lots: a multiple of Pip, >= ForexMinCont, <= trade.max_lots"),
  forex_id: field("instrument Id"),
  status: field("1 market (default), 0 pending"),
  target_price: field("pending order price (required for status 0, > 0)"),
  target_profit_price: field("take-profit (0 or empty: none)"),
  stop_loss_price: field("stop-loss (0 or empty: none)"),
  multiple: field("leverage: one of the instrument's HasForexMultiple"),
  ...idempotencyField,
});

/** A malformed field of these routes answers "Invalid value: FIELD". */
const config = { invalidFieldKey: "trade_invalid_field" };

export function registerTradingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const engine = (): Engine => {
    if (!ctx.engine) throw new DomainError("internal", CODE_INTERNAL);
    return ctx.engine;
  };

  r.post(
    "/v1/api/forex/submit",
    { config, schema: { tags: ["trading"], summary: "Place a market or pending order", headers: idempotencyHeader, body: submitBody } },
    async (req) => {
      const u = requireUser(ctx.db, req);
      const order = engine().submit(u.id, parseOrderRequest(req.body), idemKey(req, req.body));
      return ctx.ok(req, orderView(order), order.status === 0 ? "pending_placed" : "order_placed");
    },
  );

  r.get(
    "/v1/api/forex/my_deal",
    {
      config,
      schema: {
        tags: ["trading"],
        summary: "A page of the user's orders",
        headers: tokenHeader,
        querystring: fields({ status: field("1 holding (default), 0 pending, 3 history"), page: field("page from 1 (20 per page)"), ...cacheBuster }),
      },
    },
    async (req) => {
      const u = requireUser(ctx.db, req);
      const q = parseDealQuery(req.query.status, req.query.page);
      return ctx.ok(req, dealPageView(engine().listOrders(u.id, q.status, q.page)));
    },
  );

  r.post(
    "/v1/api/forex/close",
    { config, schema: { tags: ["trading"], summary: "Close an open position", headers: idempotencyHeader, body: fields({ id: orderId, ...idempotencyField }) } },
    async (req) => {
      const u = requireUser(ctx.db, req);
      return ctx.ok(req, orderView(engine().close(u.id, intParam(req.body.id), idemKey(req, req.body))), "order_closed");
    },
  );

  r.post(
    "/v1/api/forex/cancel_trade",
    { config, schema: { tags: ["trading"], summary: "Cancel a pending order", headers: idempotencyHeader, body: fields({ id: orderId, ...idempotencyField }) } },
    async (req) => {
      const u = requireUser(ctx.db, req);
      return ctx.ok(req, orderView(engine().cancel(u.id, intParam(req.body.id), idemKey(req, req.body))), "order_cancelled");
    },
  );

  r.post(
    "/v1/api/forex/set_stop_price",
    {
      config,
      schema: {
        tags: ["trading"],
        summary: "Set or clear take-profit and stop-loss",
        headers: tokenHeader,
        body: fields({ id: orderId, target_profit_price: field("take-profit (0 or empty clears)"), stop_loss_price: field("stop-loss (0 or empty clears)") }),
      },
    },
    async (req) => {
      const u = requireUser(ctx.db, req);
      const b = req.body;
      const id = intParam(b.id);
      const tp = parseStop(b.target_profit_price, "target_profit_price");
      const sl = parseStop(b.stop_loss_price, "stop_loss_price");
      return ctx.ok(req, orderView(engine().setStops(u.id, id, tp, sl)), "stops_updated");
    },
  );

  r.get(
    "/v1/api/main/account/forexDetail",
    { config, schema: { tags: ["trading"], summary: "Account figures", headers: tokenHeader, querystring: fields(cacheBuster) } },
    async (req) => {
      const u = requireUser(ctx.db, req);
      return ctx.ok(req, accountView(engine().accountValues(u.id)));
    },
  );

  r.post(
    "/v1/api/main/user/resetForexDemoAccount",
    { config, schema: { tags: ["trading"], summary: "Reset a demo account", headers: tokenHeader } },
    async (req) => {
      const u = requireUser(ctx.db, req);
      return ctx.ok(req, accountView(engine().resetDemo(u.id)), "demo_reset_done");
    },
  );

  // A GET never changes state: the state-changing calls answer GET with a refusal.
  for (const path of ["/v1/api/forex/submit", "/v1/api/forex/close", "/v1/api/forex/cancel_trade", "/v1/api/forex/set_stop_price", "/v1/api/main/user/resetForexDemoAccount"]) {
    app.get(path, { schema: { hide: true } }, async (req) => ({ code: CODE_FAIL, msg: translate(req.lang, "method_not_allowed"), data: null }));
  }
}
