/**
 * The ranking kept in memory, per upstream (routes.ts serves it): computed at most once per
 * RANKING_TTL_MS, and let go at once when what it shows changes (forgetRanking): a listed trader's
 * close on this node, a provider's new name, stop or hiding.
 */
import type { FollowItem } from "@contract/api/follow";
import type { AppContext } from "../../platform/context.js";

/** How long the ranking is served from memory. */
export const RANKING_TTL_MS = 10_000;

interface Kept {
  atMs: number;
  items: FollowItem[];
  ids: Set<number>;
}

const kept = new WeakMap<AppContext, { value: Kept | null }>();

/** The ranking kept for `ctx`'s upstream (null: none, or let go). */
export function slot(ctx: AppContext): { value: Kept | null } {
  let s = kept.get(ctx);
  if (!s) kept.set(ctx, (s = { value: null }));
  return s;
}

/** Drops the ranking kept in memory: the next request computes it again. */
export function forgetRanking(ctx: AppContext): void {
  slot(ctx).value = null;
}
