import { describe, expect, it } from "vitest";
import { estimate } from "~/components/trade/OrderForm";

const fx = { ForexContNum: 100_000, MarginMode: 2, ForexFeeRate: 0.002 };

describe("order form estimates (product-spec.md section 9)", () => {
  it("leverage margin: lots x units x price / leverage; fee type 2 = margin x rate", () => {
    const e = estimate(fx, 2, { cont: "0.05", multiple: "50", status: "1" }, 1.1);
    expect(e.margin).toBeCloseTo((0.05 * 100_000 * 1.1) / 50, 9);
    expect(e.fee).toBeCloseTo(e.margin! * 0.002, 9);
  });
  it("fixed margin mode 1: lots x units; fee type 1 = lots x rate", () => {
    const e = estimate({ ...fx, ForexContNum: 10, MarginMode: 1, ForexFeeRate: 3 }, 1, { cont: "2", multiple: "" }, 999);
    expect(e.margin).toBe(20);
    expect(e.fee).toBe(6);
  });
  it("a pending order is estimated at its target price", () => {
    const e = estimate(fx, 2, { cont: "1", multiple: "100", status: "0", target_price: "2" }, 1);
    expect(e.margin).toBeCloseTo(2000, 9);
  });
  it("no estimate for missing or invalid lots or leverage", () => {
    expect(estimate(fx, 2, { cont: "", multiple: "50" }, 1.1)).toEqual({ margin: null, fee: null });
    expect(estimate(fx, 2, { cont: "1", multiple: "" }, 1.1)).toEqual({ margin: null, fee: null });
    expect(estimate(fx, 2, { cont: "abc", multiple: "10" }, 1.1)).toEqual({ margin: null, fee: null });
  });
});
