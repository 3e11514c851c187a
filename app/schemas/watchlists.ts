/**
 * /mine/watchlists' forms, one schema per intent: the star of an instrument row (add to or remove
 * from Favourites, then back to the page it was on), a new list, renaming and removing one, moving
 * a list or an instrument one place, adding an instrument to a list and taking one off. The
 * upstream checks the rest (the limits, a name already taken, whose list it is).
 *
 * A form names its intent once: by its submit button (`name="intent"`), or by a hidden field when
 * its buttons carry other values (the star's `add` / `remove`), never both (conform would read the
 * two as an array and refuse).
 */
import { z } from "zod";
import {
  INSTRUMENT_CODE,
  WATCHLIST_MOVES,
  WATCHLIST_NAME_MAX,
} from "@contract/api/watchlists-rules";

const code = z
  .string({ required_error: "watchlists:code_required" })
  .trim()
  .regex(INSTRUMENT_CODE, "watchlists:code_required");
const listId = z
  .number({
    required_error: "watchlists:list_required",
    invalid_type_error: "watchlists:list_required",
  })
  .int()
  .positive();
const name = z
  .string({ required_error: "watchlists:name_required" })
  .trim()
  .min(1, "watchlists:name_required")
  .refine((s) => [...s].length <= WATCHLIST_NAME_MAX, "watchlists:name_too_long");

/**
 * A star: its button posts `add` or `remove` with the instrument's code; `back` is the page it was
 * on (a local path); `via=fetch` when the page's script sent it (answered without a redirect).
 */
export const starSchema = z
  .object({
    intent: z.literal("star"),
    add: code.optional(),
    remove: code.optional(),
    back: z.string().max(2000).optional(),
    via: z.literal("fetch").optional(),
  })
  .refine((v) => (v.add === undefined) !== (v.remove === undefined), {
    message: "watchlists:code_required",
  });

export const listCreateSchema = z.object({ intent: z.literal("create"), name });
export const listRenameSchema = z.object({ intent: z.literal("rename"), id: listId, name });
export const listDeleteSchema = z.object({ intent: z.literal("delete"), id: listId });
export const listMoveSchema = z.object({
  intent: z.enum(["list_up", "list_down"]),
  id: listId,
});
export const itemAddSchema = z.object({ intent: z.literal("item_add"), list_id: listId, code });
export const itemRemoveSchema = z.object({
  intent: z.literal("item_remove"),
  list_id: listId,
  code,
});
export const itemMoveSchema = z.object({
  intent: z.enum(["item_up", "item_down"]),
  list_id: listId,
  code,
});

/** Which way a move intent goes. */
export const moveOf = (intent: string) =>
  (intent.endsWith("_up") ? "up" : "down") as (typeof WATCHLIST_MOVES)[number];
