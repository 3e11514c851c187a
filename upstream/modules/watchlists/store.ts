/** The `watchlists` and `watchlist_items` tables (migration 040). */
import type { DB } from "../../platform/db.js";

export interface WatchlistRow {
  id: number;
  user_id: number;
  kind: string;
  name: string;
  position: number;
}

export interface WatchlistItemRow {
  watchlist_id: number;
  instrument_id: number;
  code: string;
  position: number;
}

function prepare(db: DB) {
  return {
    lists: db.prepare(
      `SELECT id, user_id, kind, name, position FROM watchlists WHERE user_id = ?
       ORDER BY position, id`,
    ),
    items: db.prepare(
      `SELECT w.watchlist_id, w.instrument_id, i.code, w.position
       FROM watchlist_items w
       JOIN watchlists l ON l.id = w.watchlist_id
       JOIN instruments i ON i.id = w.instrument_id
       WHERE l.user_id = ? ORDER BY w.watchlist_id, w.position, w.instrument_id`,
    ),
    insertList: db.prepare(
      `INSERT INTO watchlists (user_id, kind, name, position, created_at)
       VALUES (@userId, @kind, @name, @position, @at)`,
    ),
    rename: db.prepare("UPDATE watchlists SET name = @name WHERE id = @id AND user_id = @userId"),
    listPosition: db.prepare(
      "UPDATE watchlists SET position = @position WHERE id = @id AND user_id = @userId",
    ),
    removeItems: db.prepare(
      `DELETE FROM watchlist_items
       WHERE watchlist_id IN (SELECT id FROM watchlists WHERE id = @id AND user_id = @userId)`,
    ),
    removeList: db.prepare("DELETE FROM watchlists WHERE id = @id AND user_id = @userId"),
    insertItem: db.prepare(
      `INSERT INTO watchlist_items (watchlist_id, instrument_id, position, added_at)
       VALUES (@listId, @instrumentId, @position, @at)
       ON CONFLICT (watchlist_id, instrument_id) DO NOTHING`,
    ),
    removeItem: db.prepare(
      "DELETE FROM watchlist_items WHERE watchlist_id = @listId AND instrument_id = @instrumentId",
    ),
    itemPosition: db.prepare(
      `UPDATE watchlist_items SET position = @position
       WHERE watchlist_id = @listId AND instrument_id = @instrumentId`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** A user's lists in their order (position, then id). */
export function listsOfUser(db: DB, userId: number): WatchlistRow[] {
  return stmts(db).lists.all(userId) as WatchlistRow[];
}

/** Every instrument of a user's lists, by list and in each list's order. */
export function itemsOfUser(db: DB, userId: number): WatchlistItemRow[] {
  return stmts(db).items.all(userId) as WatchlistItemRow[];
}

export function insertList(
  db: DB,
  l: { userId: number; kind: string; name: string; position: number; at: number },
): number {
  return Number(stmts(db).insertList.run(l).lastInsertRowid);
}

export function renameList(db: DB, q: { id: number; userId: number; name: string }): boolean {
  return stmts(db).rename.run(q).changes === 1;
}

export function setListPosition(
  db: DB,
  q: { id: number; userId: number; position: number },
): boolean {
  return stmts(db).listPosition.run(q).changes === 1;
}

/** Deletes one of a user's lists and its instruments; false when the user has no such list. */
export function deleteList(db: DB, q: { id: number; userId: number }): boolean {
  const s = stmts(db);
  s.removeItems.run(q);
  return s.removeList.run(q).changes === 1;
}

/** Adds an instrument to a list; false when it was there already (it keeps its place). */
export function insertItem(
  db: DB,
  q: { listId: number; instrumentId: number; position: number; at: number },
): boolean {
  return stmts(db).insertItem.run(q).changes === 1;
}

/** Takes an instrument off a list; false when it was not there. */
export function deleteItem(db: DB, q: { listId: number; instrumentId: number }): boolean {
  return stmts(db).removeItem.run(q).changes === 1;
}

export function setItemPosition(
  db: DB,
  q: { listId: number; instrumentId: number; position: number },
): void {
  stmts(db).itemPosition.run(q);
}
