/**
 * The copy form's example: the lots a copy of `amount` USD would take of the provider's latest
 * trade under the chosen mode and multiplier (the contract's copyLots). Pure, on the server and in
 * the browser alike.
 */
import { copyLots, type CopyMode } from "@contract/api/copy-rules";
import { type Provider } from "@contract/api/copy";

/** The amount the example uses while none is typed, USD. */
export const EXAMPLE_AMOUNT_USD = 1000;

const toMicro = (usd: number) => Math.round(usd * 1_000_000);

/** The copied lots as decimal text; null when there is nothing to show (no trade, bad input). */
export function exampleLots(
  p: Pick<Provider, "last_trade" | "equity">,
  input: { mode: CopyMode; multiple: string; amount: number },
): string | null {
  const last = p.last_trade;
  if (!last) return null;
  const multiple = input.multiple.trim().replace(",", ".") || (input.mode === "fixed" ? "" : "1");
  if (!/^\d+(\.\d+)?$/.test(multiple) || !(input.amount > 0)) return null;
  try {
    return copyLots(
      {
        mode: input.mode,
        multiple,
        providerLots: last.lots,
        copyEquityMicro: toMicro(input.amount),
        providerEquityMicro: toMicro(Number(p.equity)),
      },
      last.lot_step,
    );
  } catch {
    return null;
  }
}
