/**
 * The console's amount fields (app/schemas/operator.ts): a deposit approved for another amount and
 * an adjustment (signed) are checked by the contract's USD rule, so the form and the upstream's
 * schema of the call accept exactly the same amounts; a refused one says so in the operator's
 * language ("operator:amount_invalid").
 */
import { describe, expect, it } from "vitest";
import { adjustments, approveCharge } from "@contract/api/admin";
import { adjustSchema, approveChargeSchema } from "~/schemas/operator";

const KEY = "0f8e7c1a-3b2d-4e5f-9a8b-7c6d5e4f3a2b";
const VALUES = [
  "12.5",
  "0.000001",
  "1000000000",
  "1000000000.000001",
  "-12.5",
  "0",
  "-0",
  "1e5",
  "1.1234567",
  "123456789012345",
  "abc",
  " 7 ",
  "12.",
  ".5",
];

describe("the console's amounts", () => {
  it("approving a deposit for another amount: the form accepts what approve's schema accepts", () => {
    for (const v of VALUES) {
      const form = approveChargeSchema.safeParse({ intent: "approve", id: 1, amount: v });
      expect(form.success, v).toBe(approveCharge.body.shape.amount.safeParse(v).success);
      if (!form.success) expect(form.error.issues[0].message).toBe("operator:amount_invalid");
    }
    // Left empty: the declared amount.
    expect(approveChargeSchema.safeParse({ intent: "approve", id: 1 }).success).toBe(true);
  });

  it("an adjustment, signed: the form accepts what the adjustment's schema accepts", () => {
    for (const v of VALUES) {
      const fields = { intent: "adjust", uid: "10000001", amount: v, remark: "r" };
      const form = adjustSchema.safeParse({ ...fields, idempotency_key: KEY });
      expect(form.success, v).toBe(adjustments.body.shape.amount.safeParse(v).success);
    }
  });
});
