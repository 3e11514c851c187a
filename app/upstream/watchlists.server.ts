/** Watchlist calls of the upstream (upstream/API.md "Watchlists"); each change answers the lists. */
import * as api from "@contract/api/watchlists";
import type { Watchlist, WatchlistMove } from "@contract/api/watchlists";
import { type CallOptions, type Caller, type UpstreamResult, send } from "./client.server";

type Lists = UpstreamResult<Watchlist[]>;

/** The account's lists (`init`: a session that ended answers 999 instead of leaving the page). */
export function watchlistList(c: Caller, opts?: CallOptions): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistList, {}, opts);
}

export function watchlistCreate(c: Caller, name: string): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistCreate, { name });
}

export function watchlistRename(c: Caller, id: number, name: string): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistRename, { id, name });
}

export function watchlistDelete(c: Caller, id: number): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistDelete, { id });
}

export function watchlistMove(c: Caller, id: number, direction: WatchlistMove): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistMove, { id, direction });
}

/** Adds an instrument to a list; without `listId`, to Favourites (made by the first star). */
export function watchlistItemAdd(c: Caller, code: string, listId?: number): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistItemAdd, { code, list_id: listId });
}

export function watchlistItemRemove(c: Caller, code: string, listId?: number): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistItemRemove, { code, list_id: listId });
}

export function watchlistItemMove(
  c: Caller,
  listId: number,
  code: string,
  direction: WatchlistMove,
): Promise<Lists> {
  return send<Watchlist[]>(c, api.watchlistItemMove, { list_id: listId, code, direction });
}
