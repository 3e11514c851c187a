/**
 * A signed-in user's chart choice over real HTTP on a fresh store (upstream/API.md "Chart"): the
 * defaults until one is saved, a saved choice read back (and by no other account), a parameter
 * out of its bounds, an unknown type and a MACD whose fast average is not the shorter refused
 * with 400 and their translated messages, changing nothing; no token, no choice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHART_SETTINGS } from "@contract/api/chart-rules";
import { demoToken, startServer, type Server } from "./accounts-helpers.js";

let s: Server;
beforeAll(async () => void (s = await startServer()), 60_000);
afterAll(() => s?.close());
const demo = () => demoToken(s);

const read = (token: string) => s.get("/api/chart/settings", { token });

/** A POST whose answer's HTTP status is read too. */
async function save(token: string, body: Record<string, string>, lang = "en") {
  const r = await fetch(s.base + "/api/chart/settings", {
    method: "POST",
    headers: { authorization: token, lang, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
  return { status: r.status, body: await r.json() };
}

describe("chart settings", () => {
  it("answers the defaults until a choice is saved, then the choice, to its owner only", async () => {
    const token = await demo();
    const other = await demo();
    expect((await read(token)).data).toEqual(DEFAULT_CHART_SETTINGS);
    const r = await save(token, {
      type: "heikin_ashi",
      period: "4hour",
      sma: "1",
      sma_period: "50",
      bollinger: "1",
      bollinger_width: "2.5",
      macd: "1",
      macd_fast: "8",
      macd_slow: "21",
      rsi: "0",
    });
    expect(r.status).toBe(200);
    expect(r.body.msg).toBe("Chart settings saved");
    const saved = (await read(token)).data;
    expect(saved).toEqual(r.body.data);
    expect(saved.type).toBe("heikin_ashi");
    expect(saved.period).toBe("4hour");
    expect(saved.indicators.sma).toEqual({ on: true, period: 50 });
    expect(saved.indicators.bollinger).toEqual({ on: true, period: 20, width: 2.5 });
    expect(saved.indicators.macd).toEqual({ on: true, fast: 8, slow: 21, signal: 9 });
    expect(saved.indicators.rsi).toEqual({ on: false, period: 14 });
    expect((await read(other)).data).toEqual(DEFAULT_CHART_SETTINGS);
  });

  it("refuses a value out of bounds, an unknown type and a MACD out of order, changing nothing", async () => {
    const token = await demo();
    await save(token, { type: "line", period: "1day", rsi: "1", rsi_period: "21" });
    const before = (await read(token)).data;
    const range = await save(token, { type: "line", period: "1day", rsi_period: "101" }, "de");
    expect(range.status).toBe(400);
    expect(range.body.msg).toBe("Wählen Sie einen Wert von 2 bis 100");
    const step = await save(token, { type: "line", period: "1day", sma_period: "20.5" });
    expect(step.status).toBe(400);
    const type = await save(token, { type: "renko", period: "1day" }, "fr");
    expect(type.status).toBe(400);
    expect(type.body.msg).toBe("Choisissez l’une des options du graphique");
    const macd = await save(token, { type: "line", period: "1day", macd_fast: "30" });
    expect(macd.status).toBe(400);
    expect(macd.body.msg).toBe("MACD's fast average must be shorter than its slow average");
    expect((await read(token)).data).toEqual(before);
  });

  it("needs a session", async () => {
    expect((await s.get("/api/chart/settings")).code).toBe(999);
  });
});
