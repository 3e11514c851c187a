/**
 * The operator API (upstream/API.md "Operators"): the deposit and withdrawal queues, adjustments,
 * user lookup, the audit log and proof images, under /admin/api/ only. A user's token never opens
 * it: only an operator's sign-in or `Authorization: Bearer <OPERATOR_TOKEN>` does. Every action and
 * its audit row commit in one transaction. One file per resource under routes/.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../platform/context.js";
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

export function registerOperatorRoutes(app: FastifyInstance, ctx: AppContext): void {
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
