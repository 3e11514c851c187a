/**
 * Trading API of the reference upstream (upstream/API.md, "Trading"): submit, my_deal, close,
 * cancel_trade, set_stop_price, forexDetail, resetForexDemoAccount. State changes are POST only;
 * reads are GET and accept (and ignore) the client's `t` timestamp. The engine (ctx.engine) does
 * the work; this file only reads parameters and wraps answers in the envelope.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../app.js";
import { requireUser } from "../../platform/http/auth.js";
import { DomainError, CODE_FAIL } from "../../platform/errors.js";
import { translate } from "../../platform/i18n.js";
import type { Engine } from "./engine.js";

type Params = Record<string, unknown>;

function params(req: FastifyRequest): Params {
  const b = req.body;
  if (b && typeof b === "object" && !Array.isArray(b)) return b as Params;
  return {};
}

function query(req: FastifyRequest): Params {
  const q = req.query;
  return q && typeof q === "object" ? (q as Params) : {};
}

/** The client's idempotency key: the `Idempotency-Key` header, or the form field `idempotency_key`. */
function idemKey(req: FastifyRequest, p: Params): string | null {
  const h = req.headers["idempotency-key"];
  const raw = typeof h === "string" && h.trim() !== "" ? h : typeof p.idempotency_key === "string" ? p.idempotency_key : "";
  const k = raw.trim();
  if (k === "") return null;
  if (k.length > 128 || !/^[\x21-\x7e]+$/.test(k)) throw new DomainError("trade_invalid_field", CODE_FAIL, { field: "Idempotency-Key" });
  return k;
}

export function registerTradingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const engine = (): Engine => {
    if (!ctx.engine) throw new DomainError("internal", 500);
    return ctx.engine;
  };

  app.post("/v1/api/forex/submit", async (req) => {
    const u = requireUser(ctx.db, req);
    const p = params(req);
    const view = engine().submit(u.id, p, idemKey(req, p));
    return ctx.ok(req, view, view.Status === 0 ? "pending_placed" : "order_placed");
  });

  app.get("/v1/api/forex/my_deal", async (req) => {
    const u = requireUser(ctx.db, req);
    const q = query(req);
    return ctx.ok(req, engine().listOrders(u.id, q.status, q.page));
  });

  app.post("/v1/api/forex/close", async (req) => {
    const u = requireUser(ctx.db, req);
    const p = params(req);
    return ctx.ok(req, engine().close(u.id, p.id, idemKey(req, p)), "order_closed");
  });

  app.post("/v1/api/forex/cancel_trade", async (req) => {
    const u = requireUser(ctx.db, req);
    const p = params(req);
    return ctx.ok(req, engine().cancel(u.id, p.id, idemKey(req, p)), "order_cancelled");
  });

  app.post("/v1/api/forex/set_stop_price", async (req) => {
    const u = requireUser(ctx.db, req);
    const p = params(req);
    return ctx.ok(req, engine().setStops(u.id, p.id, p.target_profit_price, p.stop_loss_price), "stops_updated");
  });

  app.get("/v1/api/main/account/forexDetail", async (req) => {
    const u = requireUser(ctx.db, req);
    const v = engine().accountValues(u.id);
    return ctx.ok(req, {
      balance: v.balance,
      lock_balance: v.lock_balance,
      total: v.total,
      all_caution_money: v.all_caution_money,
      can_use: v.can_use,
      HazardRate: v.HazardRate,
    });
  });

  app.post("/v1/api/main/user/resetForexDemoAccount", async (req) => {
    const u = requireUser(ctx.db, req);
    return ctx.ok(req, engine().resetDemo(u.id), "demo_reset_done");
  });

  // A GET never changes state: the state-changing calls answer GET with a refusal.
  for (const path of ["/v1/api/forex/submit", "/v1/api/forex/close", "/v1/api/forex/cancel_trade", "/v1/api/forex/set_stop_price", "/v1/api/main/user/resetForexDemoAccount"]) {
    app.get(path, async (req) => ({ code: CODE_FAIL, msg: translate(req.lang, "method_not_allowed"), data: null }));
  }
}
