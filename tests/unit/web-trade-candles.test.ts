import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import {
  candleGeometry,
  niceTicks,
  DEFAULT_BOX,
  type Candle,
} from "~/components/trade/candle-geometry";
import { CandleSvg } from "~/components/trade/CandleSvg";
import { chartSeries } from "~/components/trade/chart-series";
import { DEFAULT_CHART_SETTINGS } from "@contract/api/chart-rules";

const candles: Candle[] = [
  { time: 1_700_000_000_000, open: 1.1, high: 1.2, low: 1.0, close: 1.15, volume: 10 },
  { time: 1_700_000_060_000, open: 1.15, high: 1.3, low: 1.1, close: 1.12, volume: 20 },
  { time: 1_700_000_120_000, open: 1.12, high: 1.25, low: 1.05, close: 1.2, volume: 5 },
];

const series = chartSeries(candles, DEFAULT_CHART_SETTINGS);

/** A box as the chart's paths draw it (CandleSvg's boxPath): x, y, width, height. */
const boxOf = (x: number, y: number, w: number, h: number) => `M${x} ${y}h${w}v${h}h${-w}Z`;

/** The subpaths of the bodies and wicks in the group of class `cls`, and the bodies' fill. */
function marksOf(html: string, cls: string): { bodies: string[]; wicks: string[]; fill: string } {
  const group = new RegExp(`<g class="${cls}">(.*?)</g>`).exec(html)?.[1] ?? "";
  const d = (name: string) => new RegExp(`class="${name}" d="([^"]*)"`).exec(group)?.[1] ?? "";
  return {
    bodies: d("candle-bodies").match(/M[^Z]*Z/g) ?? [],
    wicks: d("candle-wicks").match(/M[^M]*/g) ?? [],
    fill: /class="candle-bodies" d="[^"]*" fill="([^"]*)"/.exec(group)?.[1] ?? "",
  };
}

describe("server-rendered candle chart", () => {
  it("draws one body and one wick per candle, coloured by direction", () => {
    const g = candleGeometry(candles);
    expect(g.candles).toHaveLength(3);
    expect(g.candles.map((c) => c.up)).toEqual([true, false, true]);
    const html = renderToStaticMarkup(
      createElement(CandleSvg, {
        series,
        period: "1min",
        precision: 5,
        lang: "en",
        title: "EUR/USD",
      }),
    );
    // One path per kind of mark and direction: a body is a closed box, a wick a vertical line.
    const up = marksOf(html, "candle up");
    const down = marksOf(html, "candle down");
    expect(up.bodies).toEqual([
      boxOf(g.candles[0].x, g.candles[0].y, g.candles[0].w, g.candles[0].h),
      boxOf(g.candles[2].x, g.candles[2].y, g.candles[2].w, g.candles[2].h),
    ]);
    expect(down.bodies).toEqual([
      boxOf(g.candles[1].x, g.candles[1].y, g.candles[1].w, g.candles[1].h),
    ]);
    expect(up.wicks).toEqual(
      [0, 2].map((i) => `M${g.candles[i].cx} ${g.candles[i].yHigh}V${g.candles[i].yLow}`),
    );
    expect(down.wicks).toHaveLength(1);
    expect(up.fill).toBe("#16a34a");
    expect(down.fill).toBe("#dc2626");
    expect(html).toContain(`data-times="${candles.map((c) => c.time).join(" ")}"`);
    expect(html).toContain('aria-label="EUR/USD"');
    // price axis labels in the instrument's precision and time labels
    expect(html).toMatch(/1\.\d{5}/);
    // Times in the locale's own form (en: 12-hour), UTC.
    expect(html).toMatch(/>10:13\s?PM</);
    const de = renderToStaticMarkup(
      createElement(CandleSvg, { series, period: "1min", precision: 5, lang: "de", title: "x" }),
    );
    expect(de).toContain(">22:13<");
  });

  it("scales high and low: the highest high is at the top of the plot and the lowest low at the bottom", () => {
    const g = candleGeometry(candles);
    const top = Math.min(...g.candles.map((c) => c.yHigh));
    const bottom = Math.max(...g.candles.map((c) => c.yLow));
    expect(top).toBeCloseTo(DEFAULT_BOX.padTop, 1);
    expect(bottom).toBeCloseTo(g.plotBottom, 1);
    // the candle with the highest high (index 1) has the smallest y
    expect(g.candles[1].yHigh).toBe(top);
    expect(g.candles[0].yLow).toBe(bottom);
    // bodies lie between their wicks
    for (const c of g.candles) {
      expect(c.y).toBeGreaterThanOrEqual(c.yHigh);
      expect(c.y + c.h).toBeLessThanOrEqual(c.yLow + 1);
    }
    // a body's height is proportional to |close - open|
    const unit = (g.plotBottom - DEFAULT_BOX.padTop) / (g.max - g.min);
    expect(g.candles[2].h).toBeCloseTo(0.08 * unit, 0);
  });

  it("keeps the latest candles only, skips broken ones and handles an empty series", () => {
    const many = Array.from({ length: 100 }, (_, i) => ({
      time: i * 60_000,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 1,
    }));
    expect(candleGeometry(many, DEFAULT_BOX, 60).candles).toHaveLength(60);
    expect(candleGeometry(many, DEFAULT_BOX, 60).candles[0].time).toBe(40 * 60_000);
    expect(
      candleGeometry([...candles, { time: 5, open: NaN, high: 1, low: 1, close: 1 }]).candles,
    ).toHaveLength(3);
    expect(candleGeometry([]).candles).toHaveLength(0);
    expect(niceTicks(1.0, 1.3, 4).every((v) => v >= 1.0 && v <= 1.3)).toBe(true);
  });
});
