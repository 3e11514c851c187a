/** The market HTTP API over real HTTP against a fresh upstream (real simulator, fresh temporary store). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream, type Env, type Server } from "./upstream-harness.js";

let server: Server;
let base: string;

async function get<T = any>(p: string, lang?: string): Promise<Env<T>> {
  const r = await fetch(base + p, { headers: lang ? { lang } : {} });
  expect(r.status).toBe(200);
  return (await r.json()) as Env<T>;
}
/** A call whose field its schema refuses: HTTP 400 with the field's translated message. */
async function getRefused(p: string, lang?: string): Promise<Env> {
  const r = await fetch(base + p, { headers: lang ? { lang } : {} });
  expect(r.status, p).toBe(400);
  return (await r.json()) as Env;
}
const t = () => `t=${Date.now()}`;
type Kline = { Time: number; Open: number; High: number; Low: number; Close: number };

beforeAll(async () => {
  server = await startUpstream({
    tmpPrefix: "tp-mkt-",
    config: { marketAlwaysOpen: true, tickMs: 100 },
  });
  base = server.base;
});
afterAll(async () => {
  await server?.close();
});

describe("getCategories", () => {
  it("lists at least 6 categories with names in the request's language", async () => {
    const en = await get("/v1/api/forex/getCategories?" + t());
    expect(en.code).toBe(1);
    expect(en.data.length).toBeGreaterThanOrEqual(6);
    expect(en.data[0]).toEqual({ Id: expect.any(Number), NameShowTrans: expect.any(String) });
    const names = (lang: string) =>
      get("/v1/api/forex/getCategories", lang).then((r) => r.data.map((c: any) => c.NameShowTrans));
    expect(await names("en")).toContain("Crypto");
    expect(await names("hk")).toContain("加密貨幣");
    expect(await names("tw")).toContain("加密貨幣");
    expect(await names("de")).toContain("Edelmetalle");
    expect(await names("ar")).toContain("العملات المشفرة");
    expect(await names("xx")).toContain("Crypto"); // unknown language falls back to English
  });
});

describe("trade_list", () => {
  it("names metals and energies in the request's language; pairs keep their code", async () => {
    const show = async (lang: string) => {
      const r = await get("/v1/api/forex/trade_list?" + t(), lang);
      return new Map<string, string>(r.data.map((i: any) => [i.Code, i.ShowCode]));
    };
    const en = await show("en");
    expect(en.get("XAUUSD")).toBe("Gold");
    expect((await show("de")).get("XAGUSD")).toBe("Silber");
    expect((await show("ru")).get("XAUUSD")).toBe("Золото");
    expect((await show("ar")).get("UKOIL")).toBe("خام برنت");
    expect((await show("hk")).get("NGAS")).toBe("天然氣");
    expect((await show("jp")).get("EURUSD")).toBe("EUR/USD");
  });

  it("lists every instrument with the contract's fields", async () => {
    const r = await get("/v1/api/forex/trade_list?" + t());
    expect(r.code).toBe(1);
    expect(r.data.length).toBeGreaterThanOrEqual(24);
    expect(new Set(r.data.map((i: any) => i.CategoryId)).size).toBeGreaterThanOrEqual(6);
    const eur = r.data.find((i: any) => i.Code === "EURUSD");
    expect(eur).toMatchObject({
      ShowCode: "EUR/USD",
      Logo: "/static/logos/EURUSD.svg",
      MarketStatus: 1,
      PricePrecision: 5,
      Pip: 0.01,
      ForexMinCont: 0.01,
      ForexContNum: 100000,
      MarginMode: expect.any(Number),
      ForexFeeRate: expect.any(Number),
      Api: expect.any(String),
    });
    expect(eur.HasForexMultiple.map((m: any) => m.Value)).toEqual([10, 20, 50, 100, 200]);
    const q = eur.ForexQuotations;
    for (const k of ["Open", "Close", "High", "Low", "Volume", "Change", "Time"])
      expect(typeof q[k], k).toBe("number");
    expect(q.Low).toBeLessThanOrEqual(q.Close);
    expect(q.High).toBeGreaterThanOrEqual(q.Close);
    expect(q.Close).toBeGreaterThan(0.5);
    expect(q.Close).toBeLessThan(2);
    expect(
      r.data.filter((i: any) => i.HasForexMultiple.length === 0).map((i: any) => i.Code),
    ).toEqual(["AMZN"]);
  });

  it("filters by searchCurrency on Code or ShowCode, case-insensitively", async () => {
    const codes = async (q: string) =>
      (
        await get(`/v1/api/forex/trade_list?searchCurrency=${encodeURIComponent(q)}&${t()}`)
      ).data.map((i: any) => i.Code);
    const eur = await codes("eur");
    expect(eur).toEqual(expect.arrayContaining(["EURUSD", "EURGBP", "EURJPY"]));
    expect(eur.every((c: string) => c.includes("EUR"))).toBe(true);
    expect(await codes("GOLD")).toEqual(["XAUUSD"]); // ShowCode "Gold"
    expect(await codes("eur/u")).toEqual(["EURUSD"]);
    expect(await codes("  btc ")).toEqual(["BTCUSD"]);
    expect(await codes("zzzz")).toEqual([]);
    expect((await codes("")).length).toBeGreaterThanOrEqual(24);
  });

  it("filters by category_id and refuses a bad one with a translated message", async () => {
    const crypto = await get("/v1/api/forex/trade_list?category_id=6");
    expect(crypto.data.length).toBeGreaterThanOrEqual(3);
    expect(crypto.data.every((i: any) => i.CategoryId === 6)).toBe(true);
    const bad = await getRefused("/v1/api/forex/trade_list?category_id=abc", "fr");
    expect(bad).toMatchObject({
      code: 0,
      msg: "Veuillez choisir une catégorie valide",
      data: null,
    });
    const missing = await get("/v1/api/forex/trade_list?category_id=999");
    expect(missing).toMatchObject({ code: 404, msg: "Category not found", data: null });
    const long = await getRefused(
      "/v1/api/forex/trade_list?searchCurrency=" + "x".repeat(40),
      "de",
    );
    expect(long.code).toBe(0);
    expect(long.msg).toBe("Der Suchtext darf höchstens 32 Zeichen lang sein");
  });

  it("moves: quotes change while the simulator ticks", async () => {
    const first = (await get("/v1/api/forex/trade_list?category_id=6")).data.map(
      (i: any) => i.ForexQuotations.Time,
    );
    // Every quote gets a later time within a bound (the simulator ticks every 100 ms here).
    await expect
      .poll(
        async () => {
          const later = (await get("/v1/api/forex/trade_list?category_id=6")).data.map(
            (i: any) => i.ForexQuotations.Time,
          );
          return later.every((tm: number, i: number) => tm > first[i]);
        },
        { timeout: 5000, interval: 50 },
      )
      .toBe(true);
  });
});

describe("kline", () => {
  it("returns 200 to 300 ascending, consistent candles for every period", async () => {
    for (const period of ["1min", "5min", "15min", "30min", "60min", "1day"]) {
      const r = await get(`/v1/api/forex/kline?forex_id=1&period=${period}&${t()}`);
      expect(r.code, period).toBe(1);
      expect(r.data.length, period).toBeGreaterThanOrEqual(200);
      expect(r.data.length, period).toBeLessThanOrEqual(300);
      let prev = -Infinity;
      for (const c of r.data) {
        expect(Object.keys(c).sort()).toEqual(["Close", "High", "Low", "Open", "Time", "Volume"]);
        expect(c.Time).toBeGreaterThan(prev);
        expect(c.High).toBeGreaterThanOrEqual(Math.max(c.Open, c.Close));
        expect(c.Low).toBeLessThanOrEqual(Math.min(c.Open, c.Close));
        prev = c.Time;
      }
    }
  });

  it("serves 4 hours, weeks and months exactly aggregated from the hours and days", async () => {
    const candles = async (period: string) =>
      (await get<Kline[]>(`/v1/api/forex/kline?forex_id=1&period=${period}&${t()}`)).data;
    const [hours, h4, days, weeks, months] = await Promise.all(
      ["60min", "4hour", "1day", "1week", "1mon"].map(candles),
    );
    // Every 4-hour candle whose hours are all served (the oldest may be cut by the 300 served).
    const inside = (c: Kline, from: Kline[], end: number) =>
      from.filter((x) => x.Time >= c.Time && x.Time < end);
    const same = (c: Kline, parts: Kline[]) => {
      expect(c.Open).toBe(parts[0].Open);
      expect(c.Close).toBe(parts[parts.length - 1].Close);
      expect(c.High).toBe(Math.max(...parts.map((p) => p.High)));
      expect(c.Low).toBe(Math.min(...parts.map((p) => p.Low)));
    };
    // Finished candles only: the forming ones follow the live price, which may tick between the
    // five requests; a candle is checked when it ended by the start of the forming hour (day).
    const firstHour = hours[0].Time;
    const formingHour = hours[hours.length - 1].Time;
    const formingDay = days[days.length - 1].Time;
    const checked4h = h4.filter(
      (c) => c.Time >= firstHour && c.Time + 4 * 3_600_000 <= formingHour,
    );
    expect(checked4h.length).toBeGreaterThan(20);
    for (const c of checked4h) {
      expect(new Date(c.Time).getUTCHours() % 4).toBe(0);
      same(c, inside(c, hours, c.Time + 4 * 3_600_000));
    }
    const firstDay = days[0].Time;
    for (const w of weeks.filter(
      (c) => c.Time >= firstDay && c.Time + 7 * 86_400_000 <= formingDay,
    )) {
      expect(new Date(w.Time).getUTCDay(), "a week starts on Monday").toBe(1);
      same(w, inside(w, days, w.Time + 7 * 86_400_000));
    }
    const monthEnd = (c: Kline) => {
      const d = new Date(c.Time);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    };
    const checkedMonths = months.filter((c) => c.Time >= firstDay && monthEnd(c) <= formingDay);
    expect(checkedMonths.length).toBeGreaterThan(3);
    for (const m of checkedMonths) {
      const d = new Date(m.Time);
      expect([d.getUTCDate(), d.getUTCHours()]).toEqual([1, 0]);
      same(m, inside(m, days, monthEnd(m)));
    }
  });

  it("ends with the forming candle at the live price", async () => {
    const list = await get("/v1/api/forex/trade_list?searchCurrency=BTCUSD");
    const id = list.data[0].Id;
    const k = await get(`/v1/api/forex/kline?forex_id=${id}&period=1min`);
    const q = (await get("/v1/api/forex/trade_list?searchCurrency=BTCUSD")).data[0].ForexQuotations;
    const last = k.data[k.data.length - 1];
    expect(Date.now() - last.Time).toBeLessThan(61_000);
    expect(Math.abs(last.Close - q.Close) / q.Close).toBeLessThan(0.01);
  });

  it("names an instrument by its code in any letter case, on either store", async () => {
    const id = (await get("/v1/api/forex/trade_list?searchCurrency=BTCUSD")).data[0].Id;
    const byId = await get(`/v1/api/forex/kline?forex_id=${id}&period=1day`);
    for (const code of ["BTCUSD", "btcusd", "BtcUsd"]) {
      const byCode = await get(`/v1/api/forex/kline?forex_id=${code}&period=1day`);
      expect(byCode.code).toBe(1);
      expect(byCode.data[0]).toEqual(byId.data[0]);
    }
  });

  it("answers translated messages for an unknown instrument or period", async () => {
    expect(await get("/v1/api/forex/kline?forex_id=99999&period=1min", "de")).toEqual({
      code: 404,
      msg: "Instrument nicht gefunden: 99999",
      data: null,
    });
    // A field its schema refuses: HTTP 400 with the field's translated message.
    const refused = async (p: string, lang?: string) => {
      const r = await fetch(base + p, { headers: lang ? { lang } : {} });
      expect(r.status, p).toBe(400);
      return (await r.json()) as Env;
    };
    const p = await refused("/v1/api/forex/kline?forex_id=1&period=2min", "jp");
    expect(p.code).toBe(0);
    expect(p.msg).toContain("「2min」");
    expect((await refused("/v1/api/forex/kline?period=1min", "spa")).msg).toBe(
      "Elige un instrumento válido",
    );
    expect((await refused("/v1/api/forex/kline?forex_id=%3Cscript%3E")).code).toBe(0);
  });
});

describe("abbreviated_cache_kline", () => {
  it("returns the last 48 closes of every instrument, 60min by default", async () => {
    const r = await get("/v1/api/forex/abbreviated_cache_kline?" + t());
    expect(r.code).toBe(1);
    expect(r.data.length).toBeGreaterThanOrEqual(24);
    for (const s of r.data) {
      expect(s.period).toBe("60min");
      expect(s.points).toHaveLength(48);
      expect(s.points.every((x: unknown) => typeof x === "number" && x > 0)).toBe(true);
    }
  });

  it("takes a comma list of ids and a period", async () => {
    const r = await get("/v1/api/forex/abbreviated_cache_kline?forex_id=1,%202&period=1day");
    expect(r.data.map((s: any) => [s.forex_id, s.period])).toEqual([
      [1, "1day"],
      [2, "1day"],
    ]);
    const k = await get("/v1/api/forex/kline?forex_id=2&period=1day");
    expect(r.data[1].points.slice(0, -1)).toEqual(k.data.slice(-48, -1).map((c: any) => c.Close));
    expect((await get("/v1/api/forex/abbreviated_cache_kline?forex_id=1,99999")).code).toBe(404);
    expect((await getRefused("/v1/api/forex/abbreviated_cache_kline?period=weekly")).code).toBe(0);
  });
});

describe("logos", () => {
  it("serves every instrument's logo as SVG with a long immutable cache", async () => {
    const list = (await get("/v1/api/forex/trade_list")).data as { Logo: string; Code: string }[];
    for (const i of list) {
      const r = await fetch(base + i.Logo);
      expect(r.status, i.Code).toBe(200);
      expect(r.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
      expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const body = await r.text();
      expect(body.startsWith("<svg")).toBe(true);
      expect(body).toContain("</svg>");
    }
  });

  it("answers 404 for an unknown logo and refuses path tricks", async () => {
    const r = await fetch(base + "/static/logos/NOPE.svg", { headers: { lang: "it" } });
    expect(r.status).toBe(404);
    expect(await r.json()).toEqual({ code: 404, msg: "Logo non trovato", data: null });
    expect((await fetch(base + "/static/logos/..%2F..%2Fapp.ts")).status).toBe(404);
  });
});
