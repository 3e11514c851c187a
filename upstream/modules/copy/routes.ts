/**
 * Copy trading's API (upstream/API.md "Copy trading", @contract/api/copy). Commands honour the
 * `Idempotency-Key` header (or the form field `idempotency_key`); a copy of another user is not
 * found. Reads of a copy's figures and a provider's equity read the engine, so a standby sends them
 * on to the leader (their contract endpoints say `readsEngine`).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { LRUCache } from "lru-cache";
import { forgetRanking } from "../follow/ranking.js";
import * as api from "@contract/api/copy";
import type { Provider } from "@contract/api/copy";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { route } from "../../platform/http/route.js";
import { idempotencyKeyOf } from "../../platform/http/params.js";
import { copiesOfUser, providerById } from "./store.js";
import { copyDetailView, copyView, providerView } from "./views.js";
import { providerSettings, saveProvider, stopProvider } from "./providers.js";
import { registerCopyAdminRoutes } from "./admin-routes.js";

const idemKey = (req: FastifyRequest, p: unknown) =>
  idempotencyKeyOf(req, p, "trade_invalid_field");

/** A malformed field of these routes answers "Invalid value: FIELD". */
const extras = { invalidFieldKey: "trade_invalid_field" };

/** How long a provider's public page is served from memory, and how many are kept. */
export const PROVIDER_PAGE_TTL_MS = 10_000;
const PROVIDER_PAGES_CACHED = 1_000;

export function registerCopyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  // The public provider page is computed at most once per PROVIDER_PAGE_TTL_MS on the leader,
  // however many visitors ask: its figures are history, its equity and open positions a glance.
  // A provider's trade or close, or a change of its settings, shows at once. Made at first use:
  // only a leader serves the page (a standby has no engine and forwards it).
  let pages: LRUCache<number, Provider> | null = null;
  const providerPages = (): LRUCache<number, Provider> => {
    if (pages) return pages;
    const made = new LRUCache<number, Provider>({
      max: PROVIDER_PAGES_CACHED,
      ttl: PROVIDER_PAGE_TTL_MS,
    });
    for (const name of ["orderPlaced", "orderActivated", "positionsClosed"] as const)
      ctx.engine.events.on(name, (e) => made.delete(e.userId));
    return (pages = made);
  };
  registerCopyAdminRoutes(app, ctx);

  route(
    app,
    api.providerMine,
    async (req) => ctx.ok(req, providerSettings(db, requireUser(db, req).id, req.lang)),
    extras,
  );

  route(
    app,
    api.providerSave,
    async (req) => {
      const u = requireUser(db, req);
      saveProvider(ctx, u.id, {
        name: req.body.name,
        description: req.body.description,
        minInvestment: req.body.min_investment,
      });
      ctx.copies.forgetProvider(u.id);
      pages?.delete(u.id);
      forgetRanking(ctx);
      return ctx.ok(req, providerSettings(db, u.id, req.lang), "provider_saved");
    },
    extras,
  );

  route(
    app,
    api.providerStop,
    async (req) => {
      const u = requireUser(db, req);
      stopProvider(db, u.id);
      forgetRanking(ctx);
      return ctx.ok(req, providerSettings(db, u.id, req.lang), "provider_stopped");
    },
    extras,
  );
  const view = (row: Parameters<typeof copyView>[2]) => copyView(db, ctx.engine, row);

  route(
    app,
    api.followProvider,
    async (req) => {
      const p = providerById(db, req.query.id);
      // A provider hidden by an operator or stopped by its owner is not public (read each time).
      if (!p || p.hidden || p.stopped_at !== null)
        throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
      let page = providerPages().get(p.user_id);
      if (!page) {
        page = providerView(db, ctx.engine, p);
        providerPages().set(p.user_id, page);
      }
      return ctx.ok(req, page);
    },
    extras,
  );

  route(
    app,
    api.copyStart,
    async (req) => {
      const u = requireUser(db, req);
      const b = req.body;
      const key = idemKey(req, b);
      // Each copy opens an account and joins every fill of its provider: starts are rate-limited.
      await ctx.limits.consume(["copy_start", String(u.id)]);
      const row = await ctx.sequencer.run(() =>
        ctx.copies.start(
          u.id,
          {
            providerId: b.provider_id,
            amount: b.amount,
            mode: b.mode,
            multiple: b.multiple,
            stopLossPct: b.stop_loss_pct,
            copyOpen: b.copy_open,
          },
          key,
        ),
      );
      return ctx.ok(req, view(row), "copy_started");
    },
    extras,
  );

  route(
    app,
    api.copyList,
    async (req) => {
      const u = requireUser(db, req);
      return ctx.ok(req, copiesOfUser(db, u.id).map(view));
    },
    extras,
  );

  route(
    app,
    api.copyDetail,
    async (req) => {
      const u = requireUser(db, req);
      const c = ctx.copies.own(u.id, req.query.id);
      return ctx.ok(req, copyDetailView(db, ctx.engine, c, req.lang));
    },
    extras,
  );

  // Pause, resume and stop: the copy's id in the path, no fields, the copy as the answer.
  const changes = [
    [api.copyPause, "pause", "copy_paused"],
    [api.copyResume, "resume", "copy_resumed"],
    [api.copyStop, "stopCopy", "copy_stopped"],
  ] as const;
  for (const [endpoint, command, msgKey] of changes)
    route(
      app,
      endpoint,
      async (req) => {
        const u = requireUser(db, req);
        const key = idemKey(req, req.body);
        const row = await ctx.sequencer.run(() => ctx.copies[command](u.id, req.params.id, key));
        return ctx.ok(req, view(row), msgKey);
      },
      extras,
    );

  route(
    app,
    api.copyFunds,
    async (req) => {
      const u = requireUser(db, req);
      const key = idemKey(req, req.body);
      const row = await ctx.sequencer.run(() =>
        ctx.copies.funds(u.id, req.params.id, req.body, key),
      );
      return ctx.ok(
        req,
        view(row),
        req.body.direction === "add" ? "copy_funds_added" : "copy_funds_removed",
      );
    },
    extras,
  );

  route(
    app,
    api.copyClosePosition,
    async (req) => {
      const u = requireUser(db, req);
      const key = idemKey(req, req.body);
      const row = await ctx.sequencer.run(() =>
        ctx.copies.closePosition(u.id, req.params.id, req.body.position_id, key),
      );
      return ctx.ok(req, view(row), "order_closed");
    },
    extras,
  );
}
