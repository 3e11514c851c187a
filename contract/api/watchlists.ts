/**
 * Watchlists (upstream/API.md "Watchlists"): the account's lists of instruments, kept on the server
 * so that every device shows the same. "Favourites" is made by the first star (items/add without a
 * list) and always comes first; the other lists are named by their owner and ordered by them. The
 * limits and kinds are in ./watchlists-rules.ts. Every change answers the account's lists.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { ID_DIGITS, optionalWholeField, wholeField } from "../fields";
import {
  INSTRUMENT_CODE,
  WATCHLIST_KINDS,
  WATCHLIST_MOVES,
  WATCHLIST_NAME_MAX,
} from "./watchlists-rules";

export {
  INSTRUMENT_CODE,
  WATCHLIST_KINDS,
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_MAX_LISTS,
  WATCHLIST_MOVES,
  WATCHLIST_NAME_MAX,
  type WatchlistKind,
  type WatchlistMove,
} from "./watchlists-rules";

export const WatchlistItemSchema = z.object({
  forex_id: z.number().int(),
  code: z.string().describe("the instrument's code"),
});

export const WatchlistSchema = z.object({
  id: z.number().int(),
  kind: z.enum(WATCHLIST_KINDS),
  name: z.string().describe("the owner's name for a custom list; empty for favourites"),
  items: z.array(WatchlistItemSchema).describe("the instruments, in the owner's order"),
});
export type Watchlist = z.infer<typeof WatchlistSchema>;

/** The account's lists, Favourites first, then in the owner's order. */
const Lists = z.array(WatchlistSchema);

const listName = text(WATCHLIST_NAME_MAX, "watchlists.name_too_long")
  .transform((s) => s.trim())
  .refine((s) => s.length > 0, { message: "watchlists.name_required" });
const listId = wholeField(ID_DIGITS, "watchlists.not_found");
const code = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z
    .string({ message: "watchlists.instrument_invalid" })
    .regex(INSTRUMENT_CODE, "watchlists.instrument_invalid"),
);
const direction = z.enum(WATCHLIST_MOVES, { message: "watchlists.move_invalid" });

export const watchlistList = endpoint({
  data: Lists,
  method: "GET",
  path: "/api/watchlists",
  auth: true,
  tag: "watchlists",
  summary: "The account's watchlists with their instruments, Favourites first",
  query: z.object({ ...cacheBuster }),
});

export const watchlistCreate = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/create",
  auth: true,
  tag: "watchlists",
  summary: "Make a named watchlist (last in the order)",
  body: z.object({ name: listName }),
});

export const watchlistRename = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/rename",
  auth: true,
  tag: "watchlists",
  summary: "Rename one of the account's named watchlists",
  body: z.object({ id: listId, name: listName }),
});

export const watchlistDelete = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/delete",
  auth: true,
  tag: "watchlists",
  summary: "Remove one of the account's named watchlists with its instruments",
  body: z.object({ id: listId }),
});

export const watchlistMove = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/move",
  auth: true,
  tag: "watchlists",
  summary: "Move a named watchlist one place up or down (Favourites stays first)",
  body: z.object({ id: listId, direction }),
});

export const watchlistItemAdd = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/items/add",
  auth: true,
  tag: "watchlists",
  summary:
    "Add an instrument at the end of a watchlist (Favourites, made if needed, without list_id); one already there stays where it is",
  body: z.object({
    code,
    /** The list; absent or empty: Favourites. */
    list_id: optionalWholeField(ID_DIGITS, "watchlists.not_found"),
  }),
});

export const watchlistItemRemove = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/items/remove",
  auth: true,
  tag: "watchlists",
  summary:
    "Take an instrument off a watchlist (Favourites without list_id); one not there is no change",
  body: z.object({
    code,
    list_id: optionalWholeField(ID_DIGITS, "watchlists.not_found"),
  }),
});

export const watchlistItemMove = endpoint({
  data: Lists,
  method: "POST",
  path: "/api/watchlists/items/move",
  auth: true,
  tag: "watchlists",
  summary: "Move an instrument of a watchlist one place up or down",
  body: z.object({ list_id: listId, code, direction }),
});
