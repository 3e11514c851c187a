/**
 * Copy trading in the operators' console (@contract/api/copy, bottom): copies looked up by owner,
 * provider and status; a copy stopped with a remark its owner sees; providers hidden from copiers
 * or shown again. Every change is in the audit log with its remark.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/copy";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../platform/context.js";
import { operatorOf } from "../../platform/http/operator-guard.js";
import { route } from "../../platform/http/route.js";
import { adminProviders, hideProvider } from "./providers.js";
import { forgetRanking } from "../follow/ranking.js";
import { copiesPage, copyById, uidOfUser, type CopyRow } from "./store.js";
import { copyView } from "./views.js";

const extras = { invalidFieldKey: "money_invalid_field" };

export function registerCopyAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const adminView = (c: CopyRow & { uid?: string }): api.AdminCopy => ({
    ...copyView(db, ctx.engine, c),
    user_id: c.user_id,
    uid: c.uid ?? uidOfUser(db, c.user_id),
    stop_remark: c.stop_remark,
  });

  route(
    app,
    api.adminCopies,
    async (req) => {
      const q = req.query;
      const { rows, total } = copiesPage(
        db,
        {
          uid: q.uid?.trim() || null,
          providerId: q.provider_id ?? null,
          // The choice n is COPY_STATUSES[n - 1]; 0 is every copy.
          status: q.status === 0 ? null : api.COPY_STATUSES[q.status - 1],
        },
        q.page,
        PAGE_SIZE,
      );
      return ctx.ok(req, { data: rows.map(adminView), total });
    },
    extras,
  );

  route(
    app,
    api.adminCopyStop,
    async (req) => {
      const op = operatorOf(req);
      const row = await ctx.sequencer.run(() =>
        ctx.copies.stopByOperator(op.actor, req.params.id, req.body.remark),
      );
      return ctx.ok(req, adminView(copyById(db, row.id)!), "copy_stopped");
    },
    extras,
  );

  route(app, api.adminProviders, async (req) => ctx.ok(req, adminProviders(db)), extras);

  route(
    app,
    api.adminProviderHide,
    async (req) => {
      const op = operatorOf(req);
      const p = hideProvider(db, {
        actor: op.actor,
        providerId: req.params.id,
        hidden: req.body.hidden === 1,
        remark: req.body.remark,
      });
      forgetRanking(ctx);
      return ctx.ok(req, p, p.hidden ? "provider_hidden" : "provider_shown");
    },
    extras,
  );
}
