/** Deposit figures: the entered amount and the coin count at a channel's price (COIN_DP, cut). */
import { describe, expect, it } from "vitest";
import { COIN_DP } from "../../contract/constants";
import { coinCount, parseAmount } from "../../app/utils/charge";
import { coinCount as upstreamCoinCount } from "../../upstream/modules/money/deposits";

describe("deposit amount", () => {
  it("accepts whole and 2-decimal amounts, a decimal comma too", () => {
    expect(parseAmount("100")).toBe("100");
    expect(parseAmount(" 12.5 ")).toBe("12.5");
    expect(parseAmount("12,05")).toBe("12.05");
  });
  it("refuses anything else", () => {
    for (const bad of ["", "-1", "1.234", "1e3", "abc", "1.", ".5", "1 000", null, 5])
      expect(parseAmount(bad), String(bad)).toBeNull();
  });
});

describe("coin count", () => {
  it("is the amount over the price, cut (not rounded) to COIN_DP places", () => {
    expect(coinCount("100", 1)).toBe((100).toFixed(COIN_DP));
    expect(coinCount("100", 3)).toBe("33.33333333");
    expect(coinCount("2", 3)).toBe("0.66666666");
    expect(coinCount("0.01", 65000)).toBe("0.00000015");
  });
  it("is what the upstream counts for the same amount", () => {
    for (const [amount, price] of [
      ["100", "1"],
      ["250.75", "65000.5"],
      ["0.01", "3100"],
      ["999999.99", "0.07"],
    ] as const)
      expect(coinCount(amount, Number(price))).toBe(
        upstreamCoinCount({ usdPrice: price }, Math.round(Number(amount) * 1e6)),
      );
  });
  it("is nothing without a positive amount or price", () => {
    expect(coinCount("", 1)).toBeNull();
    expect(coinCount("0", 1)).toBeNull();
    expect(coinCount("x", 1)).toBeNull();
    expect(coinCount("10", 0)).toBeNull();
  });
});
