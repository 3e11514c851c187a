/** The four-eyes requests (/admin/api/requests): list by status, approve, reject. */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { requestsOf } from "./four-eyes.js";
import { extras } from "./shared.js";
import { requestView } from "./views.js";

export function registerRequestRoutes(app: FastifyInstance, ctx: AppContext): void {
  const requests = requestsOf(ctx);

  route(
    app,
    api.requests,
    async (req) => {
      const { status, page } = req.query;
      const { items, total } = requests.page(status, page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map((r) => requestView(ctx, r)), total });
    },
    extras,
  );

  for (const [def, approve] of [
    [api.approveRequest, true],
    [api.rejectRequest, false],
  ] as const) {
    route(
      app,
      def,
      async (req) => {
        const op = operatorOf(req);
        const done = requests.decide(req.params.id, op, approve, req.body.remark);
        return ctx.ok(req, { ...requestView(ctx, done.request), result: done.result });
      },
      extras,
    );
  }
}
