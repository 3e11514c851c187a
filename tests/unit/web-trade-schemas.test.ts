import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import {
  orderSchema,
  closeSchema,
  stepLots,
  decrementDisabled,
  isMultipleOf,
} from "~/schemas/order";
import { stopPriceSchema } from "~/schemas/stop-price";

const rules = { pip: 0.01, minLots: 0.01, maxLots: 100, multiples: [10, 50, 100] };

function form(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

const base = {
  intent: "submit",
  idempotency_key: "0f9c6a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f",
  forex_id: "3",
  type: "1",
  status: "1",
  cont: "0.05",
  multiple: "50",
  target_profit_price: "",
  stop_loss_price: "",
};

function errorsOf(fields: Record<string, string>, r = rules) {
  const s = parseWithZod(form(fields), { schema: orderSchema(r) });
  return s.status === "success" ? null : (s.error ?? {});
}

describe("order form schema", () => {
  it("accepts a market buy and coerces the upstream's fields to numbers", () => {
    const s = parseWithZod(form(base), { schema: orderSchema(rules) });
    expect(s.status).toBe("success");
    if (s.status !== "success") return;
    expect(s.value).toMatchObject({ type: 1, status: 1, cont: 0.05, multiple: 50, forex_id: 3 });
    expect(s.value.target_profit_price).toBeUndefined();
  });

  it("a pending order needs a target price; a market order does not", () => {
    expect(errorsOf({ ...base, status: "0" })?.target_price).toEqual(["errors.target_price"]);
    expect(errorsOf({ ...base, status: "0", target_price: "1.2345" })).toBeNull();
    expect(errorsOf({ ...base, status: "1", target_price: "" })).toBeNull();
  });

  it("lots must be within bounds and on the lot step", () => {
    expect(errorsOf({ ...base, cont: "" })?.cont).toEqual(["errors.cont_required"]);
    expect(errorsOf({ ...base, cont: "0" })?.cont?.[0]).toBe("errors.cont_min");
    expect(errorsOf({ ...base, cont: "0.5" }, { ...rules, minLots: 1, pip: 0.5 })?.cont).toEqual([
      "errors.cont_min",
    ]);
    expect(errorsOf({ ...base, cont: "100.01" })?.cont).toEqual(["errors.cont_max"]);
    expect(errorsOf({ ...base, cont: "0.015" })?.cont).toEqual(["errors.cont_step"]);
    expect(errorsOf({ ...base, cont: "0.07" })).toBeNull(); // 0.07 / 0.01 is 7.000000000000001 in floats
    expect(errorsOf({ ...base, cont: "abc" })?.cont).toEqual(["errors.number"]);
  });

  it("take-profit and stop-loss may be empty or 0, never negative", () => {
    expect(errorsOf({ ...base, target_profit_price: "0", stop_loss_price: "0" })).toBeNull();
    const e = errorsOf({ ...base, target_profit_price: "-1", stop_loss_price: "-0.5" });
    expect(e?.target_profit_price).toEqual(["errors.min_zero"]);
    expect(e?.stop_loss_price).toEqual(["errors.min_zero"]);
    // An absurd price (a typo, or 1e308) gets the form's own translated message, not the upstream's.
    const huge = errorsOf({
      ...base,
      target_profit_price: "1e308",
      status: "0",
      target_price: "1e13",
    });
    expect(huge?.target_profit_price).toEqual(["errors.price_too_large"]);
    expect(huge?.target_price).toEqual(["errors.price_too_large"]);
  });

  it("leverage must be one of the instrument's options; none configured refuses ordering", () => {
    expect(errorsOf({ ...base, multiple: "" })?.multiple).toEqual(["errors.multiple_required"]);
    expect(errorsOf({ ...base, multiple: "33" })?.multiple).toEqual(["errors.multiple_invalid"]);
    expect(errorsOf({ ...base, multiple: "50" }, { ...rules, multiples: [] })?.multiple).toEqual([
      "no_mult_config",
    ]);
  });

  it("buy or sell must be chosen (type 1 or 2)", () => {
    expect(errorsOf({ ...base, type: "" })?.type).toEqual(["errors.type"]);
    expect(errorsOf({ ...base, type: "3" })?.type).toEqual(["errors.type"]);
    expect(errorsOf({ ...base, type: "2" })).toBeNull();
  });
});

describe("lot stepper", () => {
  it("moves by the lot step without float noise and stays within bounds", () => {
    expect(stepLots(0.01, 1, rules)).toBe(0.02);
    expect(stepLots(0.07, 1, rules)).toBe(0.08);
    expect(stepLots(0.1, -1, rules)).toBe(0.09);
    expect(stepLots(0.01, -1, rules)).toBe(0.01);
    expect(stepLots(100, 1, rules)).toBe(100);
    expect(stepLots(0.015, 1, rules)).toBe(0.02);
  });
  it("decrement is disabled at or below Pip", () => {
    expect(decrementDisabled(0.01, rules)).toBe(true);
    expect(decrementDisabled(0.005, rules)).toBe(true);
    expect(decrementDisabled(0.02, rules)).toBe(false);
    expect(isMultipleOf(0.3, 0.1)).toBe(true);
    expect(isMultipleOf(0.35, 0.1)).toBe(false);
  });
});

describe("close and stop-price schemas", () => {
  it("close needs a positive order id", () => {
    expect(parseWithZod(form({ intent: "close", id: "12" }), { schema: closeSchema }).status).toBe(
      "success",
    );
    expect(parseWithZod(form({ intent: "close", id: "x" }), { schema: closeSchema }).status).toBe(
      "error",
    );
  });
  it("TP/SL >= 0 (0 or empty clears)", () => {
    const ok = parseWithZod(
      form({ intent: "stop", id: "5", target_profit_price: "1.2", stop_loss_price: "" }),
      { schema: stopPriceSchema },
    );
    expect(ok.status).toBe("success");
    if (ok.status === "success")
      expect(ok.value).toMatchObject({ id: 5, target_profit_price: 1.2 });
    const bad = parseWithZod(
      form({ intent: "stop", id: "5", target_profit_price: "-2", stop_loss_price: "-1" }),
      { schema: stopPriceSchema },
    );
    expect(bad.status).toBe("error");
    if (bad.status !== "error") return;
    expect(bad.error?.target_profit_price).toEqual(["errors.min_zero"]);
    expect(bad.error?.stop_loss_price).toEqual(["errors.min_zero"]);
    const huge = parseWithZod(
      form({ intent: "stop", id: "5", target_profit_price: "", stop_loss_price: "1e308" }),
      { schema: stopPriceSchema },
    );
    expect(huge.status === "error" && huge.error?.stop_loss_price).toEqual([
      "errors.price_too_large",
    ]);
  });
});
