import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { dotDecimal, withDotDecimals } from "~/components/trade/decimal";
import { orderSchema } from "~/schemas/order";

describe("decimal comma in the order form", () => {
  it("turns one comma between digits into a dot and leaves everything else alone", () => {
    expect(dotDecimal("0,05")).toBe("0.05");
    expect(dotDecimal(",5")).toBe(".5");
    expect(dotDecimal("1.5")).toBe("1.5");
    expect(dotDecimal("1,000,000")).toBe("1,000,000");
    expect(dotDecimal("abc")).toBe("abc");
    expect(dotDecimal("")).toBe("");
  });

  it("lets a German user order 0,05 lots (validated as 0.05) while other fields are untouched", () => {
    const fd = new FormData();
    for (const [k, v] of Object.entries({
      intent: "submit",
      idempotency_key: "key-12345678",
      forex_id: "1",
      type: "1",
      status: "1",
      cont: "0,05",
      multiple: "10",
      stop_loss_price: "1,2",
    }))
      fd.append(k, v);
    const schema = orderSchema({ pip: 0.01, minLots: 0.01, multiples: [10, 20] });
    expect(parseWithZod(fd, { schema }).status).toBe("error");
    const ok = parseWithZod(withDotDecimals(fd), { schema });
    expect(ok.status).toBe("success");
    if (ok.status === "success") {
      expect(ok.value.cont).toBe(0.05);
      expect(ok.value.stop_loss_price).toBe(1.2);
      expect(ok.value.idempotency_key).toBe("key-12345678");
    }
  });
});
