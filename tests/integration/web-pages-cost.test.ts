/**
 * What keeps the busiest pages light, through the real web server: the quote rows' sparklines come
 * from one shared SVG sprite (a row is a <use> of its symbol; the page's data carries no points),
 * the sprite's URL names one drawing (kept by browsers; another version is not kept), and /trade
 * sends only the candles its chart shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANDLES_SHOWN } from "../../app/components/trade/candle-geometry";
import { startWeb, type WebServer } from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { STRATEGIES: "off" } });
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

  it("the sprite's version stays the same from tick to tick (the live price is not drawn)", async () => {
    const version = async () =>
      /sparklines\.svg\?v=([\w-]+)/.exec(await (await fetch(`${web.base}/`)).text())?.[1];
    const first = await version();
    // Several ticks later (the simulated market ticks every second; the page cache lives 1 s).
    await new Promise((r) => setTimeout(r, 2500));
    expect(await version()).toBe(first);
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
    const drawn = html.match(/data-candle="/g)?.length ?? 0;
    expect(drawn).toBeGreaterThan(20);
    expect(drawn).toBeLessThanOrEqual(CANDLES_SHOWN);
  });
});
