/**
 * Prices as the engine reads them from its feed: the latest price of an instrument, the USD rate of
 * its quote currency (exact, and the float twin for the hot path), and exact floating profits.
 */
import { usdRate as usdRateOf } from "@contract/formulas";
import type { PriceFeed } from "../market/feed.js";
import { Dec, dec, decimalArith, toMicro } from "../money/decimal.js";
import { profitUsd, type InstrumentSpec } from "./orders.js";
import { usdRate as usdRateFloat } from "../market/instruments.js";
import type { Account, Pos } from "./book.js";

export const ONE = new Dec(1);

export class Pricing {
  /** The price source; replaced by Engine.setFeed. */
  feed: PriceFeed | null = null;

  /** The latest price of an instrument, or null when the feed has none. */
  price(inst: InstrumentSpec): number | null {
    const q = this.feed?.quote(inst.id);
    return q && q.price > 0 ? q.price : null;
  }

  /**
   * USD per unit of the instrument's quote currency, exact: @contract/formulas usdRate (a CCYUSD
   * quote's price, or 1 / a USDCCY quote's price) over decimals; null when unknown (refused).
   */
  usdRate(inst: InstrumentSpec): Dec | null {
    if (inst.quoteCurrency === "USD") return ONE;
    return usdRateOf(decimalArith, inst.quoteCurrency, (code) => {
      const q = this.feed?.quote(code);
      return q && q.price > 0 ? dec(q.price) : null;
    });
  }

  /** Float twin of usdRate (instruments.ts usdRate) for the hot path; NaN when unknown. */
  usdRateF(inst: InstrumentSpec): number {
    if (inst.quoteCurrency === "USD") return 1;
    return (this.feed && usdRateFloat(this.feed, inst.quoteCurrency)) || NaN;
  }

  /** Exact floating profit of one position at the current price, micro-USD (0 when no price). */
  floatingMicroOf(p: Pos): number {
    const price = this.price(p.inst);
    if (price === null) return 0;
    const rate = this.usdRate(p.inst);
    if (rate === null) return 0;
    return toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
  }

  /**
   * Exact floating profit of an account, micro-USD: per instrument held, (price x net units - net cost)
   * x USD rate, summed exactly and rounded once. O(instruments held), not O(positions).
   */
  floatingMicro(a: Account): number {
    if (a.positions.size === 0) return 0;
    let sum = new Dec(0);
    for (const g of a.agg.values()) {
      const price = this.price(g.inst);
      const rate = this.usdRate(g.inst);
      if (price === null || rate === null) continue;
      sum = sum.plus(g.netUnits.mul(dec(price)).minus(g.netCost).mul(rate));
    }
    return toMicro(sum);
  }
}
