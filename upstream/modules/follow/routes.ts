/**
 * The ranking (upstream/API.md "Ranking"): GET /api/follow/list, every strategy trader with the
 * statistics of its closed positions (stats.ts), highest three-week rate first.
 *
 * The list is public and the same for everyone: it is computed at most once per RANKING_TTL_MS per
 * node, however many visitors ask, and each computation reads a bounded span of each trader's
 * history (checkpoints.ts). A close of a listed trader's position on this node, and a provider's
 * change of name, stop or hiding, show at once (forgetRanking).
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/follow";
import type { AppContext } from "../../platform/context.js";
import { route } from "../../platform/http/route.js";
import { totalsOf, traders } from "./store.js";
import { rank, traderStats } from "./stats.js";
import { forgetRanking, RANKING_TTL_MS, slot } from "./ranking.js";

export function registerFollowRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  o: { leader: boolean },
): void {
  // Closes happen on the leader; a standby's list follows them within RANKING_TTL_MS.
  if (o.leader)
    ctx.engine.events.on("positionsClosed", (e) => {
      if (slot(ctx).value?.ids.has(e.userId)) forgetRanking(ctx);
    });
  route(app, api.followList, async (req) => {
    const now = Date.now();
    const s = slot(ctx);
    if (!s.value || now - s.value.atMs >= RANKING_TTL_MS || now < s.value.atMs) {
      const items = traders(ctx.db).map((t) =>
        traderStats(t.user_id, t.name, t.start_capital_micro, totalsOf(ctx.db, t.user_id, now)),
      );
      s.value = { atMs: now, items: rank(items), ids: new Set(items.map((i) => i.id)) };
    }
    return ctx.ok(req, s.value.items);
  });
}
