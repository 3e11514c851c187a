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
    expect(html.match(/class="candle-body"/g)).toHaveLength(3);
    expect(html.match(/<line[^>]*class|data-candle=/g)?.length).toBeGreaterThanOrEqual(3);
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
