/**
 * What keeps the busiest pages light, through the real web server: the quote rows' sparklines come
 * from one shared SVG sprite (a row is a <use> of its symbol; the page's data carries no points),
 * the sprite's URL names one drawing (kept by browsers; another version is not kept), and /trade
 * sends only the candles its chart shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANDLES_SHOWN } from "../../app/components/trade/candle-geometry";
import { bucketStart } from "../../upstream/modules/market/candles";
import { startWeb, type WebServer } from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { STRATEGIES: "off", MARKET_CACHE_MS: "0" } });
}, 120_000);

afterAll(async () => {
  await web?.close();
});

async function upstream<T>(path: string): Promise<T> {
  const body = (await (await fetch(`${web.upstreamBase}${path}`)).json()) as { data: T };
  return body.data;
}

describe("sparklines", () => {
  it("every home row uses its instrument's symbol of one sprite, and the page carries no points", async () => {
    const instruments = await upstream<{ Id: number; Code: string }[]>("/v1/api/forex/trade_list");
    const html = await (await fetch(`${web.base}/`)).text();
    const uses = [...html.matchAll(/<use href="(\/media\/sparklines\.svg\?v=[\w-]+)#s(\d+)"/g)];
    expect(uses.length).toBe(instruments.length);
    expect(new Set(uses.map((u) => Number(u[2])))).toEqual(new Set(instruments.map((i) => i.Id)));
    const urls = new Set(uses.map((u) => u[1]));
    expect(urls.size).toBe(1);
    // The hydration data holds no sparkline points (they are drawn once, in the sprite).
    expect(html).not.toContain("points");

    const sprite = await fetch(`${web.base}${[...urls][0]}`);
    expect(sprite.status).toBe(200);
    expect(sprite.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(sprite.headers.get("cache-control")).toContain("immutable");
    const svg = await sprite.text();
    expect(svg).not.toMatch(/<script|on\w+=|style=/i);
    for (const i of instruments)
      expect(svg).toMatch(new RegExp(`<symbol id="s${i.Id}"[^>]*><path d="M[\\d.,L]+`));
  });

  it("a sprite URL of another version answers the current drawing without letting it be kept", async () => {
    const res = await fetch(`${web.base}/media/sparklines.svg?v=old`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toContain("<symbol");
  });

  it("the sprite's version stays the same from tick to tick within an hour (the live price is not drawn)", async () => {
    const version = async () =>
      /sparklines\.svg\?v=([\w-]+)/.exec(await (await fetch(`${web.base}/`)).text())?.[1];
    const lastTick = async () =>
      Math.max(
        ...(
          await upstream<{ ForexQuotations: { Time: number } }[]>("/v1/api/forex/trade_list")
        ).map((i) => i.ForexQuotations.Time),
      );
    const hour = () => bucketStart("60min", Date.now());
    // At most two tries: only the end of an hour (a candle's end) may change the drawing, and one
    // try takes a few ticks, so the second try cannot meet another hour's end.
    for (let tries = 0; tries < 2; tries++) {
      const from = hour();
      const first = await version();
      const tick = await lastTick();
      // Until the market has ticked twice more (each answer is fresh: MARKET_CACHE_MS is 0 here).
      let seen = 0;
      for (let prev = tick; seen < 2;) {
        const t = await lastTick();
        if (t > prev) [seen, prev] = [seen + 1, t];
        else await new Promise((r) => setTimeout(r, 100));
      }
      const second = await version();
      if (hour() !== from) continue;
      expect(first).toBeDefined();
      expect(second).toBe(first);
      return;
    }
    throw new Error("two tries each met the end of an hour");
  });
});

describe("/trade", () => {
  it("sends and draws only the candles the chart shows", async () => {
    const [eurusd] = (
      await upstream<{ Id: number; Code: string }[]>("/v1/api/forex/trade_list")
    ).filter((i) => i.Code === "EURUSD");
    const all = await upstream<unknown[]>(`/v1/api/forex/kline?forex_id=${eurusd.Id}&period=1min`);
    expect(all.length).toBeGreaterThan(CANDLES_SHOWN);
    const html = await (await fetch(`${web.base}/trade?code=EURUSD&period=1min`)).text();
    const drawn = /data-times="([^"]*)"/.exec(html)?.[1].split(" ").length ?? 0;
    expect(drawn).toBeGreaterThan(20);
    expect(drawn).toBeLessThanOrEqual(CANDLES_SHOWN);
  });
});
