/**
 * The ranking (upstream/API.md "Ranking"): GET /api/follow/list, every strategy trader with the
 * statistics of its closed positions (stats.ts), highest three-week rate first, with its daily
 * figures (risk.ts: risk score, returns over months, drawdown), its copiers and age; sorted and
 * filtered on request (rank-view.ts). The user's favourite providers (the star), and the risk
 * disclosure the trading screens show.
 *
 * The list is public and the same for everyone: it is computed at most once per RANKING_TTL_MS per
 * node, however many visitors ask, and each computation reads a bounded span of each trader's
 * history (checkpoints.ts). A close of a listed trader's position on this node, and a provider's
 * change of name, stop or hiding, show at once (forgetRanking).
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/follow";
import { RANK_FAVOURITES_MAX, RISK_SCORE } from "@contract/api/rank-rules";
import type { AppContext } from "../../platform/context.js";
import { route } from "../../platform/http/route.js";
import { requireUser } from "../../platform/http/auth.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { getBoolSetting, getSetting } from "../../platform/settings.js";
import { copyingOf, providerById } from "../copy/store.js";
import { totalsOf, traders } from "./store.js";
import { DAY_MS, percent, rank, traderStats } from "./stats.js";
import { forgetRanking, RANKING_TTL_MS, slot } from "./ranking.js";
import { rankFigures, sortAndFilter } from "./rank-view.js";
import {
  addFavourite,
  favouritesOf,
  latestDaily,
  latestDisclosure,
  providerStarts,
  removeFavourite,
} from "./risk-store.js";

export function registerFollowRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  o: { leader: boolean },
): void {
  const { db } = ctx;
  // Closes happen on the leader; a standby's list follows them within RANKING_TTL_MS.
  if (o.leader)
    ctx.engine.events.on("positionsClosed", (e) => {
      if (slot(ctx).value?.ids.has(e.userId)) forgetRanking(ctx);
    });
  route(app, api.followList, async (req) => {
    const now = Date.now();
    const s = slot(ctx);
    if (!s.value || now - s.value.atMs >= RANKING_TTL_MS || now < s.value.atMs) {
      const daily = latestDaily(db);
      const starts = providerStarts(db);
      const items = traders(db).map((t) => ({
        ...traderStats(t.user_id, t.name, t.start_capital_micro, totalsOf(db, t.user_id, now)),
        ...rankFigures(daily.get(t.user_id), {
          copiers: copyingOf(db, t.user_id).copiers,
          startedAt: starts.get(t.user_id) ?? now,
          nowMs: now,
        }),
      }));
      s.value = { atMs: now, items: rank(items), ids: new Set(items.map((i) => i.id)) };
    }
    return ctx.ok(req, sortAndFilter(s.value.items, req.query, RISK_SCORE.max));
  });

  route(app, api.followFavourites, async (req) =>
    ctx.ok(req, favouritesOf(db, requireUser(db, req).id)),
  );

  route(app, api.followFavouriteSet, async (req) => {
    const u = requireUser(db, req);
    const id = req.body.provider_id;
    if (req.body.on === 1) {
      const p = providerById(db, id);
      if (!p || p.hidden || p.stopped_at !== null)
        throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
      const mine = favouritesOf(db, u.id);
      if (!mine.includes(id) && mine.length >= RANK_FAVOURITES_MAX)
        throw new DomainError("favourites_full", 0, { max: RANK_FAVOURITES_MAX });
      addFavourite(db, u.id, id, Date.now());
    } else removeFavourite(db, u.id, id);
    return ctx.ok(req, favouritesOf(db, u.id));
  });

  route(app, api.riskDisclosure, async (req) => {
    const row = latestDisclosure(db);
    const text = (getSetting(db, "risk.disclosure_text") ?? "").trim();
    return ctx.ok(req, {
      show: getBoolSetting(db, "risk.disclosure_show", true),
      text: text === "" ? null : text,
      losing_pct: row && row.accounts > 0 ? Math.round(percent(row.losing, row.accounts)) : null,
      accounts: row?.accounts ?? 0,
      day: row ? new Date(row.day * DAY_MS).toISOString().slice(0, 10) : null,
    });
  });
}
