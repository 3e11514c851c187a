/**
 * The operator API (upstream/API.md "Operators"): the deposit and withdrawal queues, adjustments,
 * user lookup, the audit log and proof images, under /admin/api/ only. A user's token never opens
 * it: only an operator's sign-in or `Authorization: Bearer <OPERATOR_TOKEN>` does. Every action and
 * its audit row commit in one transaction. One file per resource under routes/.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../../platform/context.js";
import { authenticateOperator } from "../../platform/http/operator-guard.js";
import { writeAudit } from "./audit.js";
import { registerAdjustmentRoutes } from "./routes/adjustments.js";
import { registerAuditRoutes } from "./routes/audit.js";
import { registerCatalogRoutes } from "./routes/catalog.js";
import { registerChargeRoutes } from "./routes/charges.js";
import { registerLedgerRoutes } from "./routes/ledger.js";
import { registerNotFoundRoutes } from "./routes/not-found.js";
import { registerRequestRoutes } from "./routes/requests.js";
import { registerSessionRoutes } from "./routes/session.js";
import { registerSettingRoutes } from "./routes/settings.js";
import { registerUploadRoutes } from "./routes/uploads.js";
import { registerUserRoutes } from "./routes/users.js";
import { registerWithdrawalRoutes } from "./routes/withdrawals.js";

/**
 * Who a refused operator call came from: the signed-in operator or the scripts' token, else
 * "unknown" (a 403 is answered only to a caller who authenticated, so this is rare).
 */
function callerOf(ctx: AppContext, req: FastifyRequest): string {
  if (req.operator) return req.operator.actor;
  try {
    return authenticateOperator(ctx.operators, req).actor;
  } catch {
    return "unknown";
  }
}

/**
 * Every 403 of the operator API (a role without the permission, an identity document for a role
 * without support, a request decided by its own filer) leaves an audit row, `denied`, naming the
 * call: a probe of what a role may do is visible to the team.
 */
function auditDenials(app: FastifyInstance, ctx: AppContext): void {
  app.addHook("onResponse", async (req, reply) => {
    if (reply.statusCode !== 403 || !req.url.startsWith("/admin/api/")) return;
    try {
      const target = `${req.method} ${req.routeOptions.url ?? req.url.split("?")[0]}`;
      ctx.db.transaction(() =>
        writeAudit(ctx.db, { actor: callerOf(ctx, req), action: "denied", target }),
      )();
    } catch (err) {
      ctx.log.error({ err, url: req.url }, "audit of a denied operator call failed");
    }
  });
}

export function registerOperatorRoutes(app: FastifyInstance, ctx: AppContext): void {
  auditDenials(app, ctx);
  registerSessionRoutes(app, ctx);
  registerChargeRoutes(app, ctx);
  registerWithdrawalRoutes(app, ctx);
  registerAdjustmentRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerLedgerRoutes(app, ctx);
  registerSettingRoutes(app, ctx);
  registerAuditRoutes(app, ctx);
  registerCatalogRoutes(app, ctx);
  registerRequestRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerNotFoundRoutes(app, ctx);
}
