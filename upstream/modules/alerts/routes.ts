/**
 * Price alert routes (upstream/API.md "Price alerts", @contract/api/alerts): the account's alerts
 * (read from the store by any node), made and removed on the leader, whose engine-side index
 * (service.ts) arms and disarms them with the store (a standby forwards every POST to it).
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/alerts";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { alertView, type PriceAlerts } from "./service.js";
import { alertsOfUser } from "./store.js";

export function registerAlertRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  alerts: PriceAlerts | null,
): void {
  const { db } = ctx;
  /** The leader's alerts (a standby forwards the POSTs that need them). */
  const leading = (): PriceAlerts => {
    if (!alerts) throw new Error("price alerts are changed on the leader only");
    return alerts;
  };

  route(app, api.alertList, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, alertsOfUser(db, me.id).map(alertView));
  });

  route(app, api.alertCreate, async (req) => {
    const me = requireUser(db, req);
    const b = req.body;
    const made = leading().create(me.id, {
      instrumentId: b.forex_id,
      condition: b.condition,
      target: b.target,
      repeat: b.repeat,
      cooldownMin: b.cooldown_min,
      until: b.until,
    });
    return ctx.ok(req, made, "alerts.created");
  });

  route(app, api.alertDelete, async (req) => {
    const me = requireUser(db, req);
    leading().remove(me.id, req.body.id);
    return ctx.ok(req, null, "alerts.deleted");
  });
}
