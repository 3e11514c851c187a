/** The audit log, newest first, of one operator or of all (GET /admin/api/audit). */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { auditPage } from "../audit.js";
import { extras } from "./shared.js";
import { auditView } from "./views.js";

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    api.audit,
    async (req) => {
      const { page, actor } = req.query;
      const { items, total } = auditPage(ctx.db, page, PAGE_SIZE, actor || undefined);
      return ctx.ok(req, { data: items.map(auditView), total });
    },
    extras,
  );
}
