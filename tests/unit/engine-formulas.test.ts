/** Every formula of trading-rules.md, pure: margin, fee, profit, account values, pending types, stops, risk. */
import { describe, expect, it } from "vitest";
import {
  Dec,
  dec,
  toMicro,
  microToString,
  parseDecimal,
  round2,
  round6,
  usdToMicro,
} from "../../upstream/modules/money/decimal.js";
import {
  BUY,
  SELL,
  feeUsd,
  marginUsd,
  openAmounts,
  pendingKind,
  pendingReached,
  profitUsd,
  stopHit,
  unitsOf,
  validateLeverage,
  validateLots,
  validateStops,
} from "../../upstream/modules/trading/orders.js";
import {
  equityMicro,
  freeMarginMicro,
  isMarginCall,
  isStopOut,
  marginLevelPct,
  protectionAmount,
  stopOutOrder,
} from "../../upstream/modules/trading/risk.js";
import { setStopPrice } from "@contract/api/trading";
import { stopOf } from "../../upstream/modules/trading/requests.js";
import { refusal } from "./engine-helpers.js";

const fx = {
  pip: "0.01",
  minLots: "0.01",
  contNum: "100000",
  marginMode: 2,
  feeRate: "0.002",
  multiples: [10, 20, 50, 100, 200],
};
const fixed = { ...fx, contNum: "100", marginMode: 1 };

describe("money", () => {
  it("rounds to micro-USD half-even, exactly", () => {
    expect(toMicro(dec("0.0000005"))).toBe(0);
    expect(toMicro(dec("0.0000015"))).toBe(2);
    expect(toMicro(dec("0.0000025"))).toBe(2);
    expect(toMicro(dec("-0.0000025"))).toBe(-2);
    expect(toMicro(dec("0.1").plus(dec("0.2")))).toBe(300000); // no 0.30000000000000004
    expect(microToString(1500000)).toBe("1.500000");
  });
  it("parses only plain decimals", () => {
    expect(parseDecimal("0.01")?.toString()).toBe("0.01");
    expect(parseDecimal(" 2 ")?.toString()).toBe("2");
    for (const bad of ["-1", "1e3", "abc", "", "0x10", "1.2.3", null, undefined, {}])
      expect(parseDecimal(bad)).toBeNull();
  });
  it("parses numbers and leading-point decimals too, up to the allowed places", () => {
    expect(parseDecimal(2)?.toString()).toBe("2");
    expect(parseDecimal(0.25)?.toString()).toBe("0.25");
    for (const bad of [Number.NaN, Infinity, -Infinity]) expect(parseDecimal(bad)).toBeNull();
    expect(parseDecimal(".5")?.toString()).toBe("0.5");
    expect(parseDecimal(".55")?.toString()).toBe("0.55");
    expect(parseDecimal(".x")).toBeNull();
    expect(parseDecimal(".5x")).toBeNull();
    expect(parseDecimal("5.5x")).toBeNull();
    expect(parseDecimal("1.12345678")?.toString()).toBe("1.12345678");
    expect(parseDecimal("1.123456789")).toBeNull();
    expect(parseDecimal("1.23", 2)?.toString()).toBe("1.23");
    expect(parseDecimal("1.234", 2)).toBeNull();
  });
  it("never books or shows a negative zero, and refuses amounts beyond exact integers", () => {
    expect(Object.is(toMicro(dec("-0.0000001")), 0)).toBe(true);
    expect(microToString(toMicro(dec("-0.0000001")))).toBe("0.000000");
    expect(() => toMicro(dec("10000000000"))).toThrow(/out of range/);
    expect(toMicro(dec("9000000000"))).toBe(9_000_000_000_000_000);
    expect(usdToMicro("1.5")).toBe(1_500_000);
    expect(usdToMicro(0.0000025)).toBe(2);
  });
  it("a number's decimal is its shortest text, whichever number was met before it", () => {
    // dec() keeps the decimals of the numbers it met last; each must still be its own number's.
    for (let round = 0; round < 2; round++)
      for (let k = 1; k <= 5_000; k++) {
        const x = k / 7;
        expect(dec(x).toString()).toBe(String(x));
        expect(dec(-x).eq(new Dec(String(-x)))).toBe(true);
      }
    expect(dec(-0).isNeg()).toBe(true);
    expect(dec(0).isNeg()).toBe(false);
    expect(dec(Number.NaN).isNaN()).toBe(true);
  });
  it("rounds display values to 6 and 2 places, without a negative zero", () => {
    expect(round6(1.23456789)).toBe(1.234568);
    expect(round6(-2.0000004)).toBe(-2);
    expect(Object.is(round6(-0.0000001), 0)).toBe(true);
    expect(round2(1.005 + 1e-9)).toBe(1.01);
    expect(round2(-1.234)).toBe(-1.23);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });
});

describe("margin", () => {
  it("leverage mode: lots x units x price / leverage", () => {
    expect(marginUsd(dec("0.1"), fx, 1.1, 100).toString()).toBe("110");
    expect(marginUsd(dec("2"), fx, 1.08523, 200).toString()).toBe("1085.23");
  });
  it("fixed mode (MarginMode 1): lots x units per lot, whatever the price and leverage", () => {
    expect(marginUsd(dec("0.5"), fixed, 2385.4, 10).toString()).toBe("50");
    expect(marginUsd(dec("0.5"), fixed, 1, 100).toString()).toBe("50");
  });
  it("converts a non-USD quote currency with the USD rate", () => {
    // USDJPY at 150: 1 lot x 100000 x 150 / 100 = 150000 JPY = 1000 USD.
    const rate = new Dec(1).div(150);
    expect(toMicro(marginUsd(dec("1"), fx, 150, 100, rate))).toBe(1000_000000);
  });
});

describe("fee", () => {
  it("trade_fee_type 1: lots x ForexFeeRate", () => {
    expect(feeUsd(1, dec("0.3"), "0.002", dec(999)).toString()).toBe("0.0006");
    expect(openAmounts(dec("2"), { ...fx, feeRate: "5" }, 1.1, 100, 1)).toEqual({
      marginMicro: 2200_000000,
      feeMicro: 10_000000,
    });
  });
  it("otherwise: margin x ForexFeeRate", () => {
    expect(feeUsd(2, dec("0.3"), "0.002", dec(330)).toString()).toBe("0.66");
    expect(openAmounts(dec("0.1"), fx, 1.1, 100, 2)).toEqual({
      marginMicro: 110_000000,
      feeMicro: 220000,
    });
  });
});

describe("profit", () => {
  it("buy: (price - open) x units; sell: (open - price) x units", () => {
    const units = dec("10000");
    expect(profitUsd(BUY, 1.1, 1.1025, units).toString()).toBe("25");
    expect(profitUsd(SELL, 1.1, 1.1025, units).toString()).toBe("-25");
    expect(profitUsd(SELL, 1.1, 1.0975, units).toString()).toBe("25");
    expect(toMicro(profitUsd(BUY, 0.1, 0.3, dec(1)))).toBe(200000);
  });
});

describe("account values", () => {
  const a = { balanceMicro: 1000_000000, usedMarginMicro: 200_000000, floatingMicro: -150_000000 };
  it("equity = balance + floating; free margin = equity - used margin", () => {
    expect(equityMicro(a)).toBe(850_000000);
    expect(freeMarginMicro(a)).toBe(650_000000);
  });
  it("margin level = equity / used margin x 100, none without margin", () => {
    expect(marginLevelPct(850, 200)).toBe(425);
    expect(marginLevelPct(850, 0)).toBeNull();
    expect(isMarginCall(100, 100)).toBe(true);
    expect(isMarginCall(100.01, 100)).toBe(false);
    expect(isMarginCall(null, 100)).toBe(false);
    expect(isStopOut(50, 50)).toBe(true);
    expect(isStopOut(51, 50)).toBe(false);
  });
});

describe("lots and leverage", () => {
  it("lots must be a multiple of Pip, at least ForexMinCont, at most trade.max_lots", () => {
    expect(validateLots(parseDecimal("0.05"), fx, "100").toString()).toBe("0.05");
    expect(refusal(() => validateLots(parseDecimal("0.015"), fx, "100"))).toBe("lots_step");
    expect(
      refusal(() => validateLots(parseDecimal("0.1"), { pip: "0.1", minLots: "0.5" }, "100")),
    ).toBe("lots_min");
    expect(refusal(() => validateLots(parseDecimal("100.01"), fx, "100"))).toBe("lots_max");
    expect(refusal(() => validateLots(parseDecimal("0"), fx, "100"))).toBe("trade_invalid_field");
    expect(refusal(() => validateLots(parseDecimal("abc"), fx, "100"))).toBe("trade_invalid_field");
  });
  it("leverage must be one of HasForexMultiple; none configured -> no_mult_config", () => {
    expect(validateLeverage(100, fx)).toBe(100);
    expect(refusal(() => validateLeverage(30, fx))).toBe("invalid_leverage");
    expect(refusal(() => validateLeverage(null, fx))).toBe("invalid_leverage");
    expect(refusal(() => validateLeverage(10, { multiples: [] }))).toBe("no_mult_config");
  });
});

describe("pending orders", () => {
  it("infers the type from the side and the target against the market", () => {
    expect(pendingKind(BUY, 1.09, 1.1)).toBe("buy_limit");
    expect(pendingKind(BUY, 1.11, 1.1)).toBe("buy_stop");
    expect(pendingKind(SELL, 1.11, 1.1)).toBe("sell_limit");
    expect(pendingKind(SELL, 1.09, 1.1)).toBe("sell_stop");
  });
  it("is reached when the price crosses the target in the order's direction", () => {
    expect(pendingReached("buy_limit", 1.09, 1.0901)).toBe(false);
    expect(pendingReached("buy_limit", 1.09, 1.09)).toBe(true);
    expect(pendingReached("buy_stop", 1.11, 1.1101)).toBe(true);
    expect(pendingReached("buy_stop", 1.11, 1.1099)).toBe(false);
    expect(pendingReached("sell_limit", 1.11, 1.12)).toBe(true);
    expect(pendingReached("sell_stop", 1.09, 1.1)).toBe(false);
    expect(pendingReached("sell_stop", 1.09, 1.08)).toBe(true);
  });
});

describe("take-profit and stop-loss", () => {
  it("buy: TP above and SL below the current price; sell: the reverse; 0 = not set", () => {
    expect(refusal(() => validateStops(BUY, 1.1, 1.2, 1.0))).toBe("accepted");
    expect(refusal(() => validateStops(BUY, 1.1, null, null))).toBe("accepted");
    expect(refusal(() => validateStops(BUY, 1.1, 1.05, null))).toBe("tp_buy");
    expect(refusal(() => validateStops(BUY, 1.1, null, 1.1))).toBe("sl_buy");
    expect(refusal(() => validateStops(SELL, 1.1, 1.0, 1.2))).toBe("accepted");
    expect(refusal(() => validateStops(SELL, 1.1, 1.15, null))).toBe("tp_sell");
    expect(refusal(() => validateStops(SELL, 1.1, null, 1.05))).toBe("sl_sell");
    // The field as set_stop_price's schema reads it, then as the engine takes it.
    const stop = (v: unknown) => {
      const r = setStopPrice.body.safeParse({ id: 1, stop_loss_price: v });
      return r.success ? stopOf(r.data.stop_loss_price) : "refused";
    };
    expect(stop("0")).toBeNull();
    expect(stop("")).toBeNull();
    expect(stop(undefined)).toBeNull();
    expect(stop("1.25")).toBe(1.25);
    expect(stop(1.25)).toBe(1.25);
    expect(stop("-1")).toBe("refused");
    expect(stop("1e3")).toBe("refused");
  });
  it("a buy closes at price >= TP or <= SL, a sell at price <= TP or >= SL", () => {
    expect(stopHit(BUY, 1.2, 1.0, 1.2)).toBe("take_profit");
    expect(stopHit(BUY, 1.2, 1.0, 1.0)).toBe("stop_loss");
    expect(stopHit(BUY, 1.2, 1.0, 1.1)).toBeNull();
    expect(stopHit(SELL, 1.0, 1.2, 0.99)).toBe("take_profit");
    expect(stopHit(SELL, 1.0, 1.2, 1.21)).toBe("stop_loss");
    expect(stopHit(SELL, 0, 0, 5)).toBeNull();
  });
});

describe("risk", () => {
  it("stop-out closes the largest loser first and re-checks after each close", () => {
    // balance 1000, margins 100 each: equity 1000 - 700 - 200 - 50 + 30 = 80; level 80 / 400 = 20% <= 50%.
    const positions = [
      { id: 1, profit: -200, margin: 100 },
      { id: 2, profit: -700, margin: 100 },
      { id: 3, profit: -50, margin: 100 },
      { id: 4, profit: 30, margin: 100 },
    ];
    // Close 2 (-700): balance 300, equity 300 - 220 = 80, used 300, level 26.7%. Close 1 (-200): balance 100,
    // equity 80, used 200, level 40%. Close 3 (-50): balance 50, equity 80, used 100 -> 80% > 50%: stop.
    expect(stopOutOrder(1000, positions, 50)).toEqual([2, 1, 3]);
    expect(stopOutOrder(100000, positions, 50)).toEqual([]);
  });
  it("negative balance protection books exactly the deficit, only with no open position", () => {
    expect(protectionAmount(-1234567, 0)).toBe(1234567);
    expect(protectionAmount(-1234567, 1)).toBe(0);
    expect(protectionAmount(5, 0)).toBe(0);
  });
});

describe("rules at their boundaries", () => {
  /** The refusal of a call with its message parameters. */
  const refused = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      const d = e as { key?: string; params?: unknown };
      if (d.key) return { key: d.key, params: d.params };
      throw e;
    }
    return "accepted";
  };

  it("lots: the minimum and the maximum are allowed; refusals name the step, minimum or maximum", () => {
    const inst = { pip: "0.05", minLots: "0.1" };
    expect(validateLots(parseDecimal("0.1"), inst, "2").toString()).toBe("0.1");
    expect(validateLots(parseDecimal("2"), inst, "2").toString()).toBe("2");
    expect(refused(() => validateLots(parseDecimal("0.12"), inst, "2"))).toEqual({
      key: "lots_step",
      params: { pip: "0.05" },
    });
    expect(refused(() => validateLots(parseDecimal("0.05"), inst, "2"))).toEqual({
      key: "lots_min",
      params: { count: "0.1" },
    });
    expect(refused(() => validateLots(parseDecimal("2.05"), inst, "2"))).toEqual({
      key: "lots_max",
      params: { count: "2" },
    });
    expect(refused(() => validateLots(null, inst, "2"))).toEqual({
      key: "trade_invalid_field",
      params: { field: "cont" },
    });
    expect(refused(() => validateLots(new Dec(Infinity), inst, "2"))).toMatchObject({
      key: "trade_invalid_field",
    });
    // A pip of 0: any step is fine.
    expect(validateLots(parseDecimal("0.123"), { pip: "0", minLots: "0.1" }, "2").toString()).toBe(
      "0.123",
    );
  });

  it("leverage: the refusal lists the options", () => {
    expect(refused(() => validateLeverage(30, fx))).toEqual({
      key: "invalid_leverage",
      params: { options: "10, 20, 50, 100, 200" },
    });
    expect(refused(() => validateLeverage(null, fx))).toMatchObject({ key: "invalid_leverage" });
    expect(validateLeverage(200, fx)).toBe(200);
  });

  it("units are lots x units per lot", () => {
    expect(unitsOf(dec("0.25"), "100000").toString()).toBe("25000");
    expect(unitsOf(dec("3"), "100").toString()).toBe("300");
  });

  it("margin and fee default to a USD-quoted instrument", () => {
    expect(marginUsd(dec("1"), fx, 1.25, 50).toString()).toBe("2500");
    expect(openAmounts(dec("1"), fx, 1.25, 50, 2)).toEqual({
      marginMicro: 2500_000000,
      feeMicro: 5_000000,
    });
    expect(profitUsd(BUY, 1.25, 1.26, dec("100000")).toString()).toBe("1000");
    // With the USD rate of a JPY quote: 1,000 JPY at 1/125 = 8 USD.
    expect(profitUsd(SELL, 150, 149.99, dec("100000"), new Dec(1).div(125)).toString()).toBe("8");
  });

  it("a pending target at the market price is a limit order, and a target is reached at equality", () => {
    expect(pendingKind(BUY, 1.1, 1.1)).toBe("buy_limit");
    expect(pendingKind(SELL, 1.1, 1.1)).toBe("sell_limit");
    expect(pendingReached("buy_stop", 1.11, 1.11)).toBe(true);
    expect(pendingReached("sell_limit", 1.11, 1.11)).toBe(true);
    expect(pendingReached("sell_limit", 1.11, 1.1099)).toBe(false);
    expect(pendingReached("sell_stop", 1.09, 1.09)).toBe(true);
    expect(pendingReached("buy_limit", 1.09, 1.0899)).toBe(true);
  });

  it("stops equal to the reference price are refused; the refusal shows the price at the instrument's precision", () => {
    expect(refused(() => validateStops(BUY, 1.1, 1.1, null, 5))).toEqual({
      key: "tp_buy",
      params: { price: "1.10000" },
    });
    expect(refused(() => validateStops(SELL, 1.1, 1.1, null, 3))).toEqual({
      key: "tp_sell",
      params: { price: "1.100" },
    });
    expect(refused(() => validateStops(SELL, 1.1, null, 1.1, 0))).toEqual({
      key: "sl_sell",
      params: { price: "1" },
    });
    expect(refused(() => validateStops(BUY, 1.1, null, 1.1, -2))).toEqual({
      key: "sl_buy",
      params: { price: "1" },
    });
    expect(refused(() => validateStops(BUY, 1.1, 1.05, null, 20))).toEqual({
      key: "tp_buy",
      params: { price: "1.100000000000" },
    });
    expect(refused(() => validateStops(BUY, 1.1, 1.05, null))).toEqual({
      key: "tp_buy",
      params: { price: "1.10000000" },
    });
    expect(refused(() => validateStops(SELL, 1.1, 0, 0))).toBe("accepted");
  });

  it("an unset take-profit or stop-loss (0) never triggers", () => {
    expect(stopHit(BUY, 0, 1.0, 1.1)).toBeNull();
    expect(stopHit(BUY, 1.2, 0, 1.1)).toBeNull();
    expect(stopHit(SELL, 1.0, 0, 1.1)).toBeNull();
    expect(stopHit(SELL, 0, 1.2, 1.1)).toBeNull();
    expect(stopHit(SELL, 1.0, 1.2, 1.0)).toBe("take_profit");
    expect(stopHit(SELL, 1.0, 1.2, 1.2)).toBe("stop_loss");
    expect(stopHit(BUY, 1.2, 1.0, 1.21)).toBe("take_profit");
    expect(stopHit(BUY, 1.2, 1.0, 0.99)).toBe("stop_loss");
  });

  it("no stop-out or margin call while no margin is used; stop-out closes the lowest id of equal losers first", () => {
    expect(isStopOut(null, 50)).toBe(false);
    expect(isStopOut(49.99, 50)).toBe(true);
    expect(isMarginCall(99.99, 100)).toBe(true);
    const tie = [
      { id: 5, profit: -100, margin: 100 },
      { id: 3, profit: -100, margin: 100 },
      { id: 4, profit: -100, margin: 100 },
    ];
    // Balance 250: equity -50, level < 0: close 3 (balance 150, equity -50, used 200), then 4
    // (balance 50, equity -50, used 100), then 5.
    expect(stopOutOrder(250, tie, 50)).toEqual([3, 4, 5]);
    // Once the level is back above the stop-out level, the rest stay open: balance 1000, equity 700.
    expect(stopOutOrder(1000, tie, 300)).toEqual([3]);
    expect(stopOutOrder(1000, [], 50)).toEqual([]);
    // The worst is found wherever it is in the list: equity 80 of 300 (26.7 %), then 80 of 200.
    expect(
      stopOutOrder(
        200,
        [
          { id: 1, profit: -10, margin: 100 },
          { id: 2, profit: -20, margin: 100 },
          { id: 3, profit: -90, margin: 100 },
        ],
        50,
      ),
    ).toEqual([3, 2]);
    // A smaller loss with a lower id, listed after the worst, does not go first (equity 100 of 200).
    expect(
      stopOutOrder(
        200,
        [
          { id: 2, profit: -90, margin: 100 },
          { id: 1, profit: -10, margin: 100 },
        ],
        50,
      ),
    ).toEqual([2]);
  });
});
