/**
 * Money API of the reference upstream (upstream/API.md "Money"), one file per resource under
 * routes/: deposits, withdrawals, the wallet's payout destinations and the ledger. Each route is
 * the contract's endpoint (@contract/api/finance): it reads the raw fields, calls the services
 * (ctx.deposits, ctx.withdrawals, draw-methods.ts, ledger.ts) and maps their answers to the wire
 * shapes. Demo accounts are refused. Registered in this order (the OpenAPI document's).
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../platform/context.js";
import { registerDepositRoutes } from "./routes/deposits.js";
import { registerWithdrawalRoutes } from "./routes/withdrawals.js";
import { registerDrawMethodRoutes } from "./routes/draw-methods.js";
import { registerLedgerRoutes } from "./routes/ledger.js";

export function registerMoneyRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerDepositRoutes(app, ctx);
  registerWithdrawalRoutes(app, ctx);
  registerDrawMethodRoutes(app, ctx);
  registerLedgerRoutes(app, ctx);
}
