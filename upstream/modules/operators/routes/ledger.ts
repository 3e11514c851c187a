/** A user's ledger, page by page (GET /admin/api/users/:uid/ledger). */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { translate } from "../../../platform/i18n.js";
import { wireTime } from "../../../platform/wire.js";
import { MICRO } from "../../money/decimal.js";
import { ledgerPage } from "../../money/ledger.js";
import { userIdByUid } from "../console-store.js";
import { extras, notFound } from "./shared.js";

export function registerLedgerRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    api.userLedger,
    async (req) => {
      const userId = userIdByUid(ctx.db, { uid: req.params.uid });
      if (userId === null) throw notFound();
      const { items, total } = ledgerPage(ctx.db, userId, req.query.page, PAGE_SIZE);
      return ctx.ok(req, {
        data: items.map((r) => ({
          id: r.id,
          amount: r.amountMicro / MICRO,
          balance_after: r.balanceAfterMicro / MICRO,
          kind: r.kind,
          kind_name: translate(req.lang, `ledger_kind_${r.kind}`),
          created_at: wireTime(r.createdAt),
        })),
        total,
      });
    },
    extras,
  );
}
