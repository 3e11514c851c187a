/**
 * The withdrawal net (contract/withdraw-net.ts), the one function the upstream books with and the web
 * shows the expected arrival with: (amount - fee) x usd_price, fee type 1 fixed, otherwise rate x
 * amount; never below 0; cut down to WITHDRAW_NET_DP places, never rounded up.
 */
import { describe, expect, it } from "vitest";
import { WITHDRAW_NET_DP } from "../../contract/constants";
import { DRAW_FEE_TYPE } from "../../contract/enums";
import { withdrawNetText } from "../../contract/withdraw-net";
import { drawFigures } from "../../upstream/modules/money/withdrawals.js";

const FIXED = DRAW_FEE_TYPE.FIXED;
const RATE = DRAW_FEE_TYPE.RATE;

describe("withdrawal net", () => {
  it("keeps WITHDRAW_NET_DP decimals", () => {
    expect(WITHDRAW_NET_DP).toBe(8);
    expect(withdrawNetText("100", FIXED, "5", "1")).toBe("95.00000000");
  });

  it("takes a fixed fee (type 1) or a rate of the amount (any other type)", () => {
    expect(withdrawNetText("100", FIXED, "1", "1")).toBe("99.00000000");
    expect(withdrawNetText("100", RATE, "0.01", "1")).toBe("99.00000000");
    expect(withdrawNetText("250.5", RATE, "0.002", "1")).toBe("249.99900000");
    // The fee in USD, the net in the currency's units: 1 USD = 0.92 EUR.
    expect(withdrawNetText("100", FIXED, "2", "0.92")).toBe("90.16000000");
  });

  it("is exact where binary floats are not", () => {
    // (0.3 - 0.1) x 3 is 0.6 exactly; in floats it is 0.6000000000000001 and (0.1 + 0.2) issues alike.
    expect(withdrawNetText("0.3", FIXED, "0.1", "3")).toBe("0.60000000");
    expect(withdrawNetText(0.3, FIXED, 0.1, 3)).toBe("0.60000000");
  });

  it("cuts down to 8 places, never rounding up", () => {
    // 1000 x 0.999 x 0.0000153846 = 0.0153692154 -> 0.01536921 (not ...22).
    expect(withdrawNetText("1000", RATE, "0.001", "0.0000153846")).toBe("0.01536921");
    // 1 x 0.123456789 = 0.123456789 -> 0.12345678 (half-up would give ...79).
    expect(withdrawNetText("1", RATE, "0", "0.123456789")).toBe("0.12345678");
  });

  it("is never below 0: a fee above the amount, or an amount that is not positive", () => {
    expect(withdrawNetText("20", FIXED, "50", "1")).toBe("0.00000000");
    expect(withdrawNetText("5", FIXED, "5", "1")).toBe("0.00000000");
    expect(withdrawNetText("0", RATE, "0.01", "1")).toBe("0.00000000");
    expect(withdrawNetText("100", RATE, "1.5", "1")).toBe("0.00000000");
  });

  it("answers null for input that is not a plain decimal", () => {
    for (const bad of ["", "abc", "-1", "1e5", "1,5", "Infinity"])
      expect(withdrawNetText(bad, FIXED, "1", "1"), bad).toBeNull();
    expect(withdrawNetText(Number.NaN, FIXED, "1", "1")).toBeNull();
    expect(withdrawNetText("1", FIXED, "x", "1")).toBeNull();
    expect(withdrawNetText("1", FIXED, "1", "x")).toBeNull();
    expect(withdrawNetText("1", FIXED, "1", "")).toBeNull();
  });

  it("reads amounts as people type them: spaces around, a leading point", () => {
    expect(withdrawNetText(" 100 ", FIXED, "5", "1")).toBe("95.00000000");
    expect(withdrawNetText(".25", FIXED, "0", "1")).toBe("0.25000000");
    expect(withdrawNetText("100", RATE, ".015", "1")).toBe("98.50000000");
    expect(withdrawNetText("100.", FIXED, "0", "1")).toBe("100.00000000");
  });

  it("keeps every digit of a large amount: never rounds up to the next unit", () => {
    // 22 significant digits: a 20-digit arithmetic would round this up to 1000000000000000.
    expect(withdrawNetText("999999999999999.9999999", FIXED, "0", "1")).toBe(
      "999999999999999.99999990",
    );
    expect(withdrawNetText("123456789012345.123456789", RATE, "0.001", "1")).toBe(
      "123333332223332.77833333",
    );
  });

  it("is what the upstream books", () => {
    const c = { id: 1, type: 1, code: "BTC", protocol: "BTC", minMicro: 1, maxMicro: 10 ** 12 };
    const cases = [
      { drawRate: "0.001", feeType: RATE, usdPrice: "0.0000153846", micro: 1_000_000_000 },
      { drawRate: "2", feeType: FIXED, usdPrice: "0.92", micro: 123_456_789 },
      { drawRate: "50", feeType: FIXED, usdPrice: "1", micro: 20_000_000 },
    ];
    for (const k of cases)
      expect(drawFigures({ ...c, ...k }, k.micro).net).toBe(
        withdrawNetText(String(k.micro / 1e6), k.feeType, k.drawRate, k.usdPrice),
      );
  });
});
