/**
 * The withdrawal form's schema (app/schemas/withdraw.ts): the amount is a plain positive decimal
 * under the contract's AMOUNT_RULE (to the cent; a decimal comma read as a point), refused with "the
 * amount must be greater than 0"; a missing destination is left to the action (select one, or set
 * one up first). The form and the upstream's schema of the call (contract/api/finance.ts draw)
 * accept exactly the same amounts.
 */
import { describe, expect, it } from "vitest";
import { draw } from "@contract/api/finance";
import { amountField, drawSchema, plainAmount, WMSG } from "~/schemas/withdraw";

const KEY = "0f8e7c1a-3b2d-4e5f-9a8b-7c6d5e4f3a2b";

describe("withdrawal form schema", () => {
  it("reads a decimal comma as a point, and nothing else", () => {
    expect(plainAmount(" 12,5 ")).toBe("12.5");
    expect(plainAmount("1,234.5")).toBe("1,234.5");
    expect(amountField.parse("12,5")).toBe("12.5");
  });

  it("accepts plain positive decimals to the cent", () => {
    for (const ok of ["1", "0.01", "250.5", ".5", "1000000000"])
      expect(amountField.safeParse(ok).success, ok).toBe(true);
  });

  it("accepts exactly what the upstream's schema of the call accepts", () => {
    const values = ["1", "0.01", "0.001", "100.123456", "12.", "1e5", "123456789012345"];
    values.push("1000000000", "1000000000.01", "9999999999", "-1", "0", " 7.5 ", "abc", "");
    for (const v of values) {
      const upstream = draw.body.shape.number.safeParse(v).success;
      expect(amountField.safeParse(v).success, v).toBe(upstream);
    }
  });

  it("refuses an amount that is not positive or not a plain decimal", () => {
    for (const bad of ["", "0", "0.000", "-1", "abc", "1e5", "1.123", "Infinity", "1,234.5"]) {
      const r = amountField.safeParse(bad);
      expect(r.success, bad).toBe(false);
      if (!r.success) expect(r.error.issues[0].message, bad).toBe(WMSG.amountPositive);
    }
  });

  it("leaves a missing destination to the action, refuses a malformed one", () => {
    const base = { intent: "draw", draw_currency_id: 1, number: "10", idempotency_key: KEY };
    expect(drawSchema.safeParse(base).success).toBe(true);
    const r = drawSchema.safeParse({ ...base, draw_method_id: 0 });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0].message).toBe(WMSG.selectAddress);
  });
});
