/** Deposit figures: the entered amount and the coin count at a channel's price (COIN_DP, cut). */
import { describe, expect, it } from "vitest";
import { COIN_DP } from "../../contract/constants";
import { coinCount, parseAmount } from "../../app/utils/charge";
import { depositCoinsText } from "../../contract/deposit-coins";
import { quickChargeSubmit } from "../../contract/api/finance";

describe("deposit amount", () => {
  it("accepts whole and 2-decimal amounts, a decimal comma too", () => {
    expect(parseAmount("100")).toBe("100");
    expect(parseAmount(" 12.5 ")).toBe("12.5");
    expect(parseAmount("12,05")).toBe("12.05");
    expect(parseAmount(".5")).toBe(".5");
  });

  it("accepts exactly the amounts the upstream's schema of the deposit accepts", () => {
    const values = ["100", "12.5", ".5", "0.01", "1.", "1.234", "1e3", "-1", "12345678901", ""];
    for (const v of values)
      expect(parseAmount(v) !== null, v).toBe(
        quickChargeSubmit.body.shape.number.safeParse(v).success || v === "0",
      );
  });
  it("refuses anything else", () => {
    for (const bad of ["", "-1", "1.234", "1e3", "abc", "1.", "12345678901", "1 000", null, 5])
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
  it("is the contract's count (depositCoinsText), exact where float is not", () => {
    for (const [amount, price] of [
      ["100", "1"],
      ["250.75", "65000.5"],
      ["0.01", "3100"],
      ["999999.99", "0.07"],
    ] as const)
      expect(coinCount(amount, Number(price))).toBe(depositCoinsText(amount, price));
    expect(depositCoinsText("250", "1")).toBe("250.00000000");
    expect(depositCoinsText("1000", "65000")).toBe("0.01538461");
    // 0.3 / 0.1 is 2.9999999999999996 in float; the count is exactly 3.
    expect(depositCoinsText("0.3", "0.1")).toBe("3.00000000");
    expect(depositCoinsText(0.3, 0.1)).toBe("3.00000000");
  });
  it("is nothing for an input that is not a positive plain decimal", () => {
    for (const [amount, price] of [
      ["0", "1"],
      ["1", "0"],
      ["-1", "1"],
      ["1e3", "1"],
      ["1", "abc"],
      [Number.NaN, 1],
      [1, Number.POSITIVE_INFINITY],
    ] as const)
      expect(depositCoinsText(amount, price), `${amount} at ${price}`).toBeNull();
  });
  it("is nothing without a positive amount or price", () => {
    expect(coinCount("", 1)).toBeNull();
    expect(coinCount("0", 1)).toBeNull();
    expect(coinCount("x", 1)).toBeNull();
    expect(coinCount("10", 0)).toBeNull();
  });
});
