/** The audit log, newest first, of one operator or of all (GET /admin/api/audit). */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { pageField } from "../../../platform/params.js";
import { auditPage } from "../audit.js";
import { extras, INVALID } from "./shared.js";
import { auditView } from "./views.js";

export function registerAuditRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    api.audit,
    async (req) => {
      const page = pageField(req.query.page, INVALID);
      const actor = typeof req.query.actor === "string" ? req.query.actor.trim() : "";
      const { items, total } = auditPage(ctx.db, page, PAGE_SIZE, actor || undefined);
      return ctx.ok(req, { data: items.map(auditView), total });
    },
    extras,
  );
}
