/**
 * Watchlists: a user's lists of instruments, kept in the store (any node reads them; a standby
 * forwards the changes to the leader like every POST). Each change runs in one write transaction,
 * which checks the limits against the store, so two devices changing the lists at once cannot pass
 * a limit together. Nothing here touches the engine: a watchlist only names instruments.
 *
 * Invariants: a user has at most one `favourites` list (the store's partial unique index), first in
 * the order (position 0; the named lists from 1); at most WATCHLIST_MAX_LISTS lists and
 * WATCHLIST_MAX_ITEMS instruments a list; an instrument at most once in a list.
 */
import {
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_MAX_LISTS,
  type WatchlistKind,
  type WatchlistMove,
} from "@contract/api/watchlists-rules";
import type { Watchlist } from "@contract/api/watchlists";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { instrumentByCode } from "../market/store.js";
import {
  deleteItem,
  deleteList,
  insertItem,
  insertList,
  itemsOfUser,
  listsOfUser,
  renameList,
  setItemPosition,
  setListPosition,
  type WatchlistRow,
} from "./store.js";

const FAVOURITES: WatchlistKind = "favourites";

/** The user's lists with their instruments, Favourites first, then in the user's order. */
export function watchlistsOf(db: DB, userId: number): Watchlist[] {
  const lists = listsOfUser(db, userId);
  const items = itemsOfUser(db, userId);
  return lists.map((l) => ({
    id: l.id,
    kind: l.kind as WatchlistKind,
    name: l.kind === FAVOURITES ? "" : l.name,
    items: items
      .filter((i) => i.watchlist_id === l.id)
      .map((i) => ({ forex_id: i.instrument_id, code: i.code })),
  }));
}

export class Watchlists {
  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  /** Makes a named list, last in the order. */
  create(userId: number, name: string): Watchlist[] {
    this.change(() => {
      const lists = listsOfUser(this.db, userId);
      if (lists.length >= WATCHLIST_MAX_LISTS)
        throw new DomainError("watchlists.too_many_lists", undefined, {
          count: WATCHLIST_MAX_LISTS,
        });
      this.refuseTakenName(lists, name, null);
      insertList(this.db, {
        userId,
        kind: "custom",
        name,
        position: Math.max(0, ...lists.map((l) => l.position)) + 1,
        at: this.now(),
      });
    });
    return watchlistsOf(this.db, userId);
  }

  rename(userId: number, id: number, name: string): Watchlist[] {
    this.change(() => {
      const lists = listsOfUser(this.db, userId);
      const list = this.named(lists, id);
      this.refuseTakenName(lists, name, list.id);
      renameList(this.db, { id, userId, name });
    });
    return watchlistsOf(this.db, userId);
  }

  /** Removes a named list with its instruments (Favourites is kept: it can only be emptied). */
  remove(userId: number, id: number): Watchlist[] {
    this.change(() => {
      this.named(listsOfUser(this.db, userId), id);
      deleteList(this.db, { id, userId });
    });
    return watchlistsOf(this.db, userId);
  }

  /** Moves a named list one place; at either end of the named lists it stays (no change). */
  move(userId: number, id: number, direction: WatchlistMove): Watchlist[] {
    this.change(() => {
      const lists = listsOfUser(this.db, userId);
      this.named(lists, id);
      const named = lists.filter((l) => l.kind !== FAVOURITES);
      const at = named.findIndex((l) => l.id === id);
      const other = named[direction === "up" ? at - 1 : at + 1];
      if (!other) return;
      // The order is renumbered 1..n first, so that two lists never share a place.
      named.forEach((l, k) => (l.position = k + 1));
      [named[at].position, other.position] = [other.position, named[at].position];
      for (const l of named) setListPosition(this.db, { id: l.id, userId, position: l.position });
    });
    return watchlistsOf(this.db, userId);
  }

  /**
   * Adds an instrument at the end of a list: `listId`, or Favourites (made by this first star).
   * One already in the list stays where it is (starring twice changes nothing).
   */
  addItem(userId: number, code: string, listId: number | undefined): Watchlist[] {
    this.change(() => {
      const instrument = this.instrument(code);
      const lists = listsOfUser(this.db, userId);
      let list = listId === undefined ? lists.find((l) => l.kind === FAVOURITES) : undefined;
      if (listId !== undefined) list = this.list(lists, listId);
      if (!list) {
        if (lists.length >= WATCHLIST_MAX_LISTS)
          throw new DomainError("watchlists.too_many_lists", undefined, {
            count: WATCHLIST_MAX_LISTS,
          });
        const id = insertList(this.db, {
          userId,
          kind: FAVOURITES,
          name: "",
          position: 0,
          at: this.now(),
        });
        list = { id, user_id: userId, kind: FAVOURITES, name: "", position: 0 };
      }
      const items = itemsOfUser(this.db, userId).filter((i) => i.watchlist_id === list.id);
      if (items.some((i) => i.instrument_id === instrument)) return;
      if (items.length >= WATCHLIST_MAX_ITEMS)
        throw new DomainError("watchlists.too_many_items", undefined, {
          count: WATCHLIST_MAX_ITEMS,
        });
      insertItem(this.db, {
        listId: list.id,
        instrumentId: instrument,
        position: Math.max(0, ...items.map((i) => i.position)) + 1,
        at: this.now(),
      });
    });
    return watchlistsOf(this.db, userId);
  }

  /** Takes an instrument off a list (Favourites without `listId`); one not there is no change. */
  removeItem(userId: number, code: string, listId: number | undefined): Watchlist[] {
    this.change(() => {
      const instrument = this.instrument(code);
      const lists = listsOfUser(this.db, userId);
      const list =
        listId === undefined ? lists.find((l) => l.kind === FAVOURITES) : this.list(lists, listId);
      if (list) deleteItem(this.db, { listId: list.id, instrumentId: instrument });
    });
    return watchlistsOf(this.db, userId);
  }

  /** Moves an instrument of a list one place; at either end it stays (no change). */
  moveItem(userId: number, listId: number, code: string, direction: WatchlistMove): Watchlist[] {
    this.change(() => {
      const instrument = this.instrument(code);
      const list = this.list(listsOfUser(this.db, userId), listId);
      const items = itemsOfUser(this.db, userId).filter((i) => i.watchlist_id === list.id);
      const at = items.findIndex((i) => i.instrument_id === instrument);
      if (at < 0) throw new DomainError("watchlists.item_not_found");
      const other = items[direction === "up" ? at - 1 : at + 1];
      if (!other) return;
      items.forEach((i, k) => (i.position = k + 1));
      [items[at].position, other.position] = [other.position, items[at].position];
      for (const i of items)
        setItemPosition(this.db, {
          listId: list.id,
          instrumentId: i.instrument_id,
          position: i.position,
        });
    });
    return watchlistsOf(this.db, userId);
  }

  private change(work: () => void): void {
    this.db.transaction(work)();
  }

  /** An enabled instrument's id by its code (any letter case). */
  private instrument(code: string): number {
    const row = instrumentByCode(this.db, { code });
    if (!row) throw new DomainError("watchlists.instrument_unknown", undefined, { code });
    return row.id;
  }

  /** One of the user's lists. */
  private list(lists: WatchlistRow[], id: number): WatchlistRow {
    const list = lists.find((l) => l.id === id);
    if (!list) throw new DomainError("watchlists.not_found");
    return list;
  }

  /** One of the user's named lists (Favourites cannot be renamed, moved or removed). */
  private named(lists: WatchlistRow[], id: number): WatchlistRow {
    const list = this.list(lists, id);
    if (list.kind === FAVOURITES) throw new DomainError("watchlists.favourites_fixed");
    return list;
  }

  /** Two of a user's lists never share a name (compared without letter case). */
  private refuseTakenName(lists: WatchlistRow[], name: string, self: number | null): void {
    const key = name.toLowerCase();
    if (lists.some((l) => l.id !== self && l.kind !== FAVOURITES && l.name.toLowerCase() === key))
      throw new DomainError("watchlists.name_taken", undefined, { name });
  }
}
