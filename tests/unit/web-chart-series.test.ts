/**
 * The server's SVG and the live chart draw the same points: for one fixed history and a choice of
 * every chart type and indicator, the SVG's geometry (chartGeometry) and the live chart's chart.js
 * datasets (chartjsDatasets) hold the same times and values, line by line, both from chartSeries;
 * the SVG puts each value where its scale says; and the indicators are the contract's.
 */
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import {
  chartGeometry,
  chartjsDatasets,
  chartSeries,
  warmUp,
  type ChartSeries,
} from "~/components/trade/chart-series";
import { CANDLES_SHOWN, yOnScale, type Candle } from "~/components/trade/candle-geometry";
import { CandleSvg } from "~/components/trade/CandleSvg";
import {
  CHART_TYPES,
  DEFAULT_CHART_SETTINGS,
  INDICATOR_KEYS,
  type ChartSettings,
} from "@contract/api/chart-rules";
import { heikinAshi, macd, rsi, sma } from "@contract/indicators";

/** A fixed history: 200 one-minute candles from 2026-11-23 08:00 UTC, no randomness. */
const HISTORY: Candle[] = Array.from({ length: 200 }, (_, i) => {
  const mid = 1.1 + 0.004 * Math.sin(i / 9) + 0.0015 * Math.cos(i / 2.7);
  const open = Math.round((mid - 0.0003 * Math.sin(i)) * 1e5) / 1e5;
  const close = Math.round((mid + 0.0003 * Math.cos(i * 1.3)) * 1e5) / 1e5;
  return {
    time: Date.parse("2026-11-23T08:00:00Z") + i * 60_000,
    open,
    high: Math.max(open, close) + 0.0002,
    low: Math.min(open, close) - 0.0002,
    close,
    volume: 10 + (i % 7),
  };
});

function everything(type: ChartSettings["type"]): ChartSettings {
  const indicators = structuredClone(DEFAULT_CHART_SETTINGS.indicators);
  for (const k of INDICATOR_KEYS) indicators[k].on = true;
  return { ...DEFAULT_CHART_SETTINGS, type, indicators };
}

/** The (time, value) pairs of every line of the SVG, by line id. */
function svgLines(series: ChartSeries) {
  const g = chartGeometry(series);
  const out = new Map<string, { x: number; y: number }[]>();
  for (const l of [...g.overlays, ...g.panes.flatMap((p) => p.lines)])
    out.set(
      l.id,
      l.points.map((p) => ({ x: p.time, y: p.value })),
    );
  for (const p of g.panes)
    if (p.bars.length)
      out.set(
        `${p.key}.histogram`,
        p.bars.map((b) => ({ x: b.time, y: b.value })),
      );
  return out;
}

describe("the server's SVG and the live chart", () => {
  for (const type of CHART_TYPES) {
    it(`draw the same points (${type}, every indicator)`, () => {
      const series = chartSeries(HISTORY, everything(type));
      const live = chartjsDatasets(series);
      const svg = svgLines(series);
      const g = chartGeometry(series);
      // The prices: the same candles (Heikin Ashi's when chosen) at the same times.
      const main = live[0];
      expect(main.data.map((p) => p.x)).toEqual(g.price.candles.map((c) => c.time));
      if (type === "line")
        expect(main.data.map((p) => p.y)).toEqual(series.candles.map((c) => c.close));
      else
        expect(main.data.map((p) => [p.o, p.h, p.l, p.c])).toEqual(
          series.candles.map((c) => [c.open, c.high, c.low, c.close]),
        );
      // Every other dataset is a line (or histogram) of the SVG, point for point.
      const lines = live.slice(1);
      expect(lines.map((d) => d.id).sort()).toEqual([...svg.keys()].sort());
      for (const d of lines) expect(d.data, d.id).toEqual(svg.get(d.id));
      // Seven indicators: three overlays (Bollinger three lines) and four panes.
      expect(series.overlays.map((l) => l.id)).toEqual([
        "sma",
        "ema",
        "bollinger.upper",
        "bollinger.middle",
        "bollinger.lower",
      ]);
      expect(g.panes.map((p) => p.key)).toEqual(["rsi", "macd", "stochastic", "atr"]);
    });
  }

  it("places each value on its pane's scale, and shows the last CANDLES_SHOWN candles", () => {
    const series = chartSeries(HISTORY, everything("candles"));
    expect(series.candles).toHaveLength(CANDLES_SHOWN);
    expect(series.candles[0].time).toBe(HISTORY[HISTORY.length - CANDLES_SHOWN].time);
    const g = chartGeometry(series);
    const price = {
      min: g.price.min,
      max: g.price.max,
      top: g.price.plotTop,
      bottom: g.price.plotBottom,
    };
    for (const l of g.overlays)
      for (const p of l.points) expect(p.y).toBe(yOnScale(p.value, price));
    const rsiPane = g.panes.find((p) => p.key === "rsi")!;
    expect([rsiPane.min, rsiPane.max]).toEqual([0, 100]);
    for (const p of rsiPane.lines[0].points)
      expect(p.y).toBe(
        yOnScale(p.value, { min: 0, max: 100, top: rsiPane.top, bottom: rsiPane.bottom }),
      );
    // Every point of a line sits at its candle's x.
    const xOf = new Map(g.price.candles.map((c) => [c.time, c.cx]));
    for (const l of [...g.overlays, ...g.panes.flatMap((p) => p.lines)])
      for (const p of l.points) expect(p.x).toBe(xOf.get(p.time));
  });

  it("draws the contract's indicators over every candle received, cut to those shown", () => {
    const s = everything("heikin_ashi");
    const series = chartSeries(HISTORY, s);
    const closes = HISTORY.map((c) => c.close);
    const from = HISTORY.length - CANDLES_SHOWN;
    expect(series.overlays[0].values).toEqual(sma(closes, 20).slice(from));
    expect(series.panes[0].lines[0].values).toEqual(rsi(closes, 14).slice(from));
    expect(series.panes[1].histogram).toEqual(macd(closes, 12, 26, 9).histogram.slice(from));
    expect(series.candles).toEqual(heikinAshi(HISTORY).slice(from));
    // With the warm-up received, every shown candle has every indicator's value.
    expect(warmUp(s)).toBe(3 * 26 + 9);
    for (const l of [...series.overlays, ...series.panes.flatMap((p) => p.lines)])
      expect(
        l.values.every((v) => v !== null),
        l.id,
      ).toBe(true);
  });

  it("renders the SVG of each type without JavaScript: bars, a line, panes and overlays", () => {
    const svg = (type: ChartSettings["type"]) =>
      renderToStaticMarkup(
        createElement(CandleSvg, {
          series: chartSeries(HISTORY, everything(type)),
          period: "1min",
          precision: 5,
          lang: "en",
          title: "EUR/USD",
          paneLabels: { rsi: "RSI (14)" },
        }),
      );
    // Every candle shown is drawn: its body a closed box, its OHLC bar one high-low line each.
    const subpaths = (html: string, cls: string, command: RegExp) =>
      [...html.matchAll(new RegExp(`class="${cls}" d="([^"]*)"`, "g"))].flatMap(
        (m) => m[1].match(command) ?? [],
      ).length;
    expect(subpaths(svg("candles"), "candle-bodies", /Z/g)).toBe(CANDLES_SHOWN);
    expect(subpaths(svg("bars"), "candle-bars", /V/g)).toBe(CANDLES_SHOWN);
    expect(svg("line")).toContain('data-line="close"');
    const all = svg("heikin_ashi");
    for (const pane of ["rsi", "macd", "stochastic", "atr"])
      expect(all).toContain(`data-pane="${pane}"`);
    for (const line of ["sma", "ema", "bollinger.upper", "macd.signal", "stochastic.d"])
      expect(all).toContain(`data-line="${line}"`);
    expect(all).toContain(">RSI (14)<");
    expect(all).toMatch(/class="chart-histogram (up|down)"/);
  });
});
