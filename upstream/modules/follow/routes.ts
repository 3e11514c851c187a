/**
 * The ranking (upstream/API.md "Ranking"): GET /api/follow/list, every strategy trader with the
 * statistics of its closed positions (stats.ts), highest three-week rate first.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/follow";
import type { AppContext } from "../../platform/context.js";
import { route } from "../../platform/http/route.js";
import { totalsOf, traders } from "./store.js";
import { rank, traderStats } from "./stats.js";

export function registerFollowRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, api.followList, async (req) => {
    const now = Date.now();
    const items = traders(ctx.db).map((t) =>
      traderStats(t.user_id, t.name, t.start_capital_micro, totalsOf(ctx.db, t.user_id, now)),
    );
    return ctx.ok(req, rank(items));
  });
}
