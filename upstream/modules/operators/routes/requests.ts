/** The four-eyes requests (/admin/api/requests): list by status, approve, reject. */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { REQUEST_STATUS } from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { CODE_FAIL, DomainError } from "../../../platform/errors.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { pageField } from "../../../platform/params.js";
import { requestsOf } from "./four-eyes.js";
import { extras, int, INVALID, remarkOf } from "./shared.js";
import { requestView } from "./views.js";

export function registerRequestRoutes(app: FastifyInstance, ctx: AppContext): void {
  const requests = requestsOf(ctx);

  route(
    app,
    api.requests,
    async (req) => {
      const status = int(req.query.status, "status", REQUEST_STATUS.PENDING);
      if (!(api.REQUEST_TABS as readonly number[]).includes(status))
        throw new DomainError(INVALID, CODE_FAIL, { field: "status" });
      const page = pageField(req.query.page, INVALID);
      const { items, total } = requests.page(status, page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map(requestView), total });
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
        const id = int(req.params.id, "id");
        const remark = remarkOf(req.body.remark);
        const done = requests.decide(id, op, approve, remark);
        return ctx.ok(req, { ...requestView(done.request), result: done.result });
      },
      extras,
    );
  }
}
