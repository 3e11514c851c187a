/** Pure helpers on orders as my_deal returns them (safe in the browser). */
import type { Order } from "~/upstream/trading.server";

/** The order's instrument label. */
export function orderCode(o: Order): string {
  return o.ForexTradeLists?.ShowCode || o.ForexTradeLists?.Code || (o.Code as string | undefined) || "";
}

/** The order's instrument id, whichever field carries it. */
export function orderForexId(o: Order): number | undefined {
  const v = o.ForexId ?? o.ForexTradeLists?.Id ?? (o.forex_id as number | undefined);
  return typeof v === "number" ? v : v === undefined ? undefined : Number(v);
}
