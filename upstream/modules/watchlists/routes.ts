/**
 * Watchlist routes (upstream/API.md "Watchlists", @contract/api/watchlists): the account's lists,
 * read from the store by any node, and their changes (a standby forwards every POST to the
 * leader). Every change answers the account's lists as they are after it.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/watchlists";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { Watchlists, watchlistsOf } from "./service.js";

export function registerWatchlistRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const lists = new Watchlists(db);

  route(app, api.watchlistList, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, watchlistsOf(db, me.id));
  });

  route(app, api.watchlistCreate, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, lists.create(me.id, req.body.name), "watchlists.created");
  });

  route(app, api.watchlistRename, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, lists.rename(me.id, req.body.id, req.body.name), "watchlists.renamed");
  });

  route(app, api.watchlistDelete, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, lists.remove(me.id, req.body.id), "watchlists.deleted");
  });

  route(app, api.watchlistMove, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, lists.move(me.id, req.body.id, req.body.direction), "watchlists.moved");
  });

  route(app, api.watchlistItemAdd, async (req) => {
    const me = requireUser(db, req);
    const b = req.body;
    const msg = b.list_id === undefined ? "watchlists.favourite_added" : "watchlists.item_added";
    return ctx.ok(req, lists.addItem(me.id, b.code, b.list_id), msg);
  });

  route(app, api.watchlistItemRemove, async (req) => {
    const me = requireUser(db, req);
    const b = req.body;
    const msg =
      b.list_id === undefined ? "watchlists.favourite_removed" : "watchlists.item_removed";
    return ctx.ok(req, lists.removeItem(me.id, b.code, b.list_id), msg);
  });

  route(app, api.watchlistItemMove, async (req) => {
    const me = requireUser(db, req);
    const b = req.body;
    return ctx.ok(req, lists.moveItem(me.id, b.list_id, b.code, b.direction), "watchlists.moved");
  });
}
