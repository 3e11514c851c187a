/** Anything else under /admin/: not found, in the envelope (never a user route), to operators only. */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../../platform/context.js";
import { CODE } from "../../../platform/errors.js";
import { guardOperator } from "../../../platform/http/operator-guard.js";
import { translate } from "../../../platform/i18n.js";

export function registerNotFoundRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Not an endpoint of its own: kept out of the OpenAPI document.
  app.all("/admin/*", { schema: { hide: true } }, async (req, reply) => {
    guardOperator(ctx.operators, req, "read");
    return reply
      .status(404)
      .send({ code: CODE.NOT_FOUND, msg: translate(req.lang, "not_found"), data: null });
  });
}
