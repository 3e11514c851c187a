/** The screens of the wallet and of withdrawals, for the server and the browser alike. */
import { DRAW_TYPE } from "@contract/enums";

export type DrawType = (typeof DRAW_TYPE)[keyof typeof DRAW_TYPE];

/** The list screen of each kind of destination. */
export const LIST_OF: Readonly<Record<DrawType, string>> = {
  [DRAW_TYPE.ADDRESS]: "/mine/coin-address-list",
  [DRAW_TYPE.BANK]: "/mine/bank-card-list",
};

/** The screen that adds a destination of a kind, optionally for one currency, returning to `back`. */
export function bindPath(type: DrawType, drawId?: number | null, back?: "withdraw"): string {
  const q = new URLSearchParams({ type: String(type) });
  if (drawId) q.set("draw_id", String(drawId));
  if (back) q.set("back", back);
  return `/mine/withdraw-way?${q}`;
}

/** The withdrawal screen of a kind, on one currency (its first when none is given). */
export function withdrawPath(type: DrawType, drawId?: number | null): string {
  const q = new URLSearchParams({ type: String(type) });
  if (drawId) q.set("draw_id", String(drawId));
  return `/mine/withdraw?${q}`;
}
