/**
 * The order form's estimate equals what the upstream books, for every instrument: one market order
 * per instrument (USD-, JPY-, CHF-, CAD- and GBP-quoted pairs, metals, energy, indices, stocks,
 * crypto), under both fee types. The estimate is the web's own (the order form's `estimate`, with
 * the USD rate the trade screen derives from trade_list's quotes); the booking is the upstream's
 * answer over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Instrument } from "@contract/api/market";
import type { Order } from "@contract/api/trading";
import { FEE_TYPE, MARGIN_MODE, ORDER_MODE, ORDER_TYPE } from "@contract/enums";
import { estimate } from "~/components/trade/OrderForm";
import { instrumentView, usdRateOf } from "~/upstream/views";
import { startUpstream, type Server } from "./upstream-harness.js";

let server: Server;

/** Changes a setting as an operator does (the operator API checks the value). */
async function setSetting(key: string, value: string): Promise<void> {
  await server.setting(key, value);
}

/** A demo account holding plenty of money, signed in. */
async function richDemo(): Promise<string> {
  await setSetting("demo.initial_balance", "1000000000");
  const c = await server.post("/api/user/createAccountDemoForU");
  const l = await server.post("/api/user/loginForU", { demo_id: c.data.demo_id });
  expect(l.code).toBe(1);
  return l.data.token as string;
}

beforeAll(async () => {
  server = await startUpstream({
    tmpPrefix: "tp-estimate-",
    manualFeed: true,
    config: { simulate: false },
  });
  // Fresh quotes at each instrument's stored price, so that every market order fills.
  const list = await server.get<Instrument[]>("/v1/api/forex/trade_list");
  for (const i of list.data) server.feed!.set(i.Code, i.ForexQuotations.Close);
});

afterAll(async () => {
  await server?.close();
});

describe.each([FEE_TYPE.MARGIN_RATE, FEE_TYPE.PER_LOT])("fee type %i", (feeType) => {
  it("every instrument books the margin and fee the order form estimates", async () => {
    await setSetting("trade_fee_type", String(feeType));
    const token = await richDemo();
    const list = (await server.get<Instrument[]>("/v1/api/forex/trade_list")).data;
    const closes = Object.fromEntries(
      list.map((i) => [i.Code.toUpperCase(), i.ForexQuotations.Close]),
    );
    const currencies = new Set(list.map((i) => i.QuoteCurrency));
    for (const ccy of ["USD", "JPY", "CHF", "CAD", "GBP"]) expect(currencies, ccy).toContain(ccy);

    let compared = 0;
    for (const wire of list) {
      const inst = instrumentView(wire);
      const leverage = Math.max(...inst.leverages, 0);
      const lots = Math.max(1, inst.minLots);
      const form = {
        cont: String(lots),
        multiple: String(leverage),
        status: String(ORDER_MODE.MARKET),
      };
      const est = estimate(
        inst,
        feeType,
        form,
        inst.quote.close,
        usdRateOf(inst.quoteCurrency, closes),
      );
      const r = await server.post<Order>(
        "/v1/api/forex/submit",
        { forex_id: inst.id, type: ORDER_TYPE.BUY, ...form },
        { token },
      );
      if (inst.leverages.length === 0 && inst.marginMode !== MARGIN_MODE.FIXED) {
        expect(r.code, `${inst.code} has no leverage options`).toBe(0);
        continue;
      }
      expect(r.code, `${inst.code}: ${r.msg}`).toBe(1);
      expect(r.data.Price, inst.code).toBe(inst.quote.close);
      // The booking is exact and rounded once to micro-USD; the estimate is a float.
      expect(
        Math.abs(r.data.CautionMoney - est.margin!),
        `${inst.code} margin`,
      ).toBeLessThanOrEqual(1e-6);
      expect(Math.abs(r.data.TradeFee - est.fee!), `${inst.code} fee`).toBeLessThanOrEqual(1e-6);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(28);
  });
});
