/**
 * The hand-driven market (MARKET_FEED=manual): the seeded history of the simulator, then prices move
 * only when POST /dev/market/price sets them with the operator token, through the same path as the
 * simulator's ticks (quotes, candles). With the simulator the setter does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bucketStart } from "../../upstream/modules/market/candles.js";
import { HARNESS_OPERATOR_TOKEN, postEnv, startUpstream, type Server } from "./upstream-harness.js";

let manual: Server;
let simulated: Server;
const operator = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };

beforeAll(async () => {
  manual = await startUpstream({
    tmpPrefix: "tp-manual-",
    config: { marketFeed: "manual", marketAlwaysOpen: true },
  });
  simulated = await startUpstream({ tmpPrefix: "tp-sim-", config: { simulate: false } });
}, 60_000);

afterAll(async () => {
  await manual?.close();
  await simulated?.close();
});

const quote = async (code: string) => {
  const list = await manual.get<{ Code: string; ForexQuotations: { Close: number } }[]>(
    "/v1/api/forex/trade_list",
  );
  return list.data.find((i) => i.Code === code)!.ForexQuotations;
};

describe("POST /dev/market/price", () => {
  it("ticks an instrument at the price: its quote and its forming candle show it", async () => {
    const set = await postEnv(
      manual.base,
      "/dev/market/price",
      { code: "EURUSD", price: "1.23456" },
      operator,
    );
    expect(set.code).toBe(1);
    expect(set.data).toMatchObject({ code: "EURUSD", price: 1.23456 });
    expect((await quote("EURUSD")).Close).toBe(1.23456);
    const again = await postEnv(
      manual.base,
      "/dev/market/price",
      { code: "EURUSD", price: "1.2" },
      operator,
    );
    expect(again.data.time).toBeGreaterThanOrEqual(set.data.time);
    expect((await quote("EURUSD")).Close).toBe(1.2);
    const candles = await manual.get<{ Time: number; Close: number; High: number }[]>(
      `/v1/api/forex/kline?forex_id=EURUSD&period=1min`,
    );
    // The forming candle closes at the last price; the candle of the first tick (the same one,
    // unless a minute ended between the two ticks) reached the first price.
    expect(candles.data.at(-1)).toMatchObject({
      Time: bucketStart("1min", again.data.time),
      Close: 1.2,
    });
    const first = candles.data.find((c) => c.Time === bucketStart("1min", set.data.time));
    expect(first?.High).toBeGreaterThanOrEqual(1.23456);
  });

  it("has seeded history like the simulator's", async () => {
    const candles = await manual.get<unknown[]>(`/v1/api/forex/kline?forex_id=USDJPY&period=60min`);
    expect(candles.data.length).toBeGreaterThan(100);
  });

  it("is for operators only, and refuses an unknown instrument or a price that is not positive", async () => {
    const none = await postEnv(manual.base, "/dev/market/price", { code: "EURUSD", price: "1.1" });
    expect(none.code).toBe(999);
    const wrong = await postEnv(
      manual.base,
      "/dev/market/price",
      { code: "EURUSD", price: "1.1" },
      {
        headers: { authorization: "Bearer not-the-operator-token-0000000000" },
      },
    );
    expect(wrong.code).toBe(999);
    const unknown = await postEnv(
      manual.base,
      "/dev/market/price",
      { code: "NOPE", price: "1" },
      operator,
    );
    expect(unknown).toMatchObject({ code: 0, msg: "Please choose a valid instrument" });
    for (const price of ["0", "-1", "abc", "1e3", ""]) {
      const bad = await postEnv(
        manual.base,
        "/dev/market/price",
        { code: "EURUSD", price },
        operator,
      );
      expect(bad.code, price).toBe(0);
    }
    expect((await quote("EURUSD")).Close).toBe(1.2);
  });

  it("does not exist with the simulator", async () => {
    const res = await fetch(`${simulated.base}/dev/market/price`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...operator.headers },
      body: "code=EURUSD&price=1.1",
    });
    expect(res.status).toBe(404);
  });
});
