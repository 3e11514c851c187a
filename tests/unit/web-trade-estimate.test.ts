import { describe, expect, it } from "vitest";
import { estimate } from "~/components/trade/OrderForm";
import { usdRateOf } from "~/upstream/views";

const fx = { unitsPerLot: 100_000, marginMode: 2, feeRate: 0.002 };

describe("order form estimates (product-spec.md section 9)", () => {
  it("leverage margin: lots x units x price / leverage; fee type 2 = margin x rate", () => {
    const e = estimate(fx, 2, { cont: "0.05", multiple: "50", status: "1" }, 1.1, 1);
    expect(e.margin).toBeCloseTo((0.05 * 100_000 * 1.1) / 50, 9);
    expect(e.fee).toBeCloseTo(e.margin! * 0.002, 9);
  });
  it("fixed margin mode 1: lots x units; fee type 1 = lots x rate", () => {
    const e = estimate(
      { ...fx, unitsPerLot: 10, marginMode: 1, feeRate: 3 },
      1,
      { cont: "2", multiple: "" },
      999,
      1,
    );
    expect(e.margin).toBe(20);
    expect(e.fee).toBe(6);
  });
  it("a pending order is estimated at its target price", () => {
    const e = estimate(fx, 2, { cont: "1", multiple: "100", status: "0", target_price: "2" }, 1, 1);
    expect(e.margin).toBeCloseTo(2000, 9);
  });
  it("no estimate for missing or invalid lots or leverage", () => {
    expect(estimate(fx, 2, { cont: "", multiple: "50" }, 1.1, 1)).toEqual({
      margin: null,
      fee: null,
    });
    expect(estimate(fx, 2, { cont: "1", multiple: "" }, 1.1, 1)).toEqual({
      margin: null,
      fee: null,
    });
    expect(estimate(fx, 2, { cont: "abc", multiple: "10" }, 1.1, 1)).toEqual({
      margin: null,
      fee: null,
    });
  });
  it("converts from the quote currency to USD: 1 lot of USDJPY at 1:100 is about 1,000 USD, not 151,000", () => {
    const closes = { USDJPY: 151, EURUSD: 1.08, GBPUSD: 1.27 };
    const rate = usdRateOf("JPY", closes);
    expect(rate).toBeCloseTo(1 / 151, 12);
    const e = estimate(fx, 2, { cont: "1", multiple: "100", status: "1" }, 151, rate);
    expect(e.margin).toBeCloseTo(1000, 6);
    expect(e.fee).toBeCloseTo(2, 6);
    expect(usdRateOf("GBP", closes)).toBe(1.27);
    expect(usdRateOf("USD", closes)).toBe(1);
    // a quote currency that cannot be valued gives no estimate
    expect(usdRateOf("XYZ", closes)).toBeNull();
    expect(estimate(fx, 2, { cont: "1", multiple: "100" }, 151, null)).toEqual({
      margin: null,
      fee: null,
    });
  });
});
