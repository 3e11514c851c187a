/**
 * The pure parts of statements and own statistics: the contract's range of days, presets, months
 * and exact money text; each ledger kind's statement line and the figures that reconcile by
 * construction (a property over random sums, from a fixed seed); the closed-position figures the
 * ranking and own statistics share (tallies, means, the closed curve's drawdown); the CSV cells a
 * download writes, parsed back; the exact display of a statement's money; the monthly bars' layout.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  microText,
  monthBefore,
  monthRange,
  monthsBetween,
  presetRange,
  STATEMENT_LINES,
  statementRange,
  textMicro,
} from "@contract/api/statements-rules";
import { LEDGER_KINDS, type KindSums } from "../../upstream/modules/money/ledger";
import { LINE_OF_KIND, lineOf, statementFigures } from "../../upstream/modules/statements/lines";
import {
  addTally,
  closedCurve,
  meanOf,
  NO_TALLY,
  tradeFigures,
  type ClosedTally,
} from "../../upstream/modules/follow/stats";
import { BOM, csvCell, csvLine } from "../../app/utils/csv.server";
import { formatDuration, formatExact } from "../../app/utils/format";
import { barLayout } from "../../app/components/MonthlyBars";
import { runSeed } from "../support/lane";

const SEED = runSeed(36_0362);
const opts = { seed: SEED, numRuns: 200 };

describe("a statement's range of days (UTC)", () => {
  it("covers from 00:00 to the day after `to`, real days only, from on or before to, at most 366 days", () => {
    expect(statementRange("2026-11-01", "2026-11-30")).toEqual({
      ok: true,
      fromMs: Date.UTC(2026, 10, 1),
      toMs: Date.UTC(2026, 11, 1),
    });
    expect(statementRange("2026-02-30", "2026-03-01")).toEqual({
      ok: false,
      problem: "date_invalid",
    });
    expect(statementRange("2026-1-01", "2026-03-01").ok).toBe(false);
    expect(statementRange("1999-12-31", "2000-01-01")).toEqual({
      ok: false,
      problem: "date_invalid",
    });
    expect(statementRange("2026-03-02", "2026-03-01")).toEqual({
      ok: false,
      problem: "range_order",
    });
    // A leap year is 366 days: a whole one is a statement, one day more is not.
    expect(statementRange("2024-01-01", "2024-12-31").ok).toBe(true);
    expect(statementRange("2024-01-01", "2025-01-01")).toEqual({
      ok: false,
      problem: "range_too_long",
    });
    expect(statementRange("2026-05-05", "2026-05-05").ok).toBe(true);
  });

  it("has presets for this month, last month (across a new year) and this year", () => {
    const jan = Date.UTC(2026, 0, 15, 23, 59);
    expect(presetRange("this_month", jan)).toEqual({ from: "2026-01-01", to: "2026-01-31" });
    expect(presetRange("last_month", jan)).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(presetRange("this_year", jan)).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    expect(presetRange("this_month", Date.UTC(2028, 1, 29))).toEqual({
      from: "2028-02-01",
      to: "2028-02-29",
    });
    expect(monthRange("2026-02")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(monthBefore("2026-01")).toBe("2025-12");
    expect(monthsBetween("2025-11", "2026-02").map((m) => m.month)).toEqual([
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
    ]);
    expect(monthsBetween("2025-12", "2025-12")[0]).toEqual({
      month: "2025-12",
      startMs: Date.UTC(2025, 11, 1),
      endMs: Date.UTC(2026, 0, 1),
    });
  });

  it("writes micro-USD as exact text with 6 places and reads it back", () => {
    expect(microText(0)).toBe("0.000000");
    expect(microText(-1)).toBe("-0.000001");
    expect(microText(1_234_567_890)).toBe("1234.567890");
    expect(() => microText(0.5)).toThrow();
    expect(() => textMicro("1.5")).toThrow();
    fc.assert(
      fc.property(fc.integer({ min: -9e15, max: 9e15 }), (m) => {
        expect(textMicro(microText(m))).toBe(m);
      }),
      opts,
    );
  });
});

describe("a statement's lines", () => {
  it("put every ledger kind on exactly one line", () => {
    expect(Object.keys(LINE_OF_KIND).sort()).toEqual([...LEDGER_KINDS].sort());
    for (const k of LEDGER_KINDS) expect(STATEMENT_LINES).toContain(lineOf(k));
    expect(lineOf("withdrawal_returned")).toBe("withdrawals");
    expect(lineOf("copy_out")).toBe("copy_moves");
    expect(lineOf("protection")).toBe("adjustments");
  });

  it("reconcile: opening + Σ lines = closing, each line the sum of its kinds (random sums)", () => {
    const sums = fc.uniqueArray(
      fc.record({
        kind: fc.constantFrom(...LEDGER_KINDS),
        beforeMicro: fc.integer({ min: -1e13, max: 1e13 }),
        insideMicro: fc.integer({ min: -1e13, max: 1e13 }),
        inside: fc.integer({ min: 0, max: 1000 }),
      }),
      { selector: (s) => s.kind },
    );
    fc.assert(
      fc.property(sums, (rows: KindSums[]) => {
        const f = statementFigures(rows);
        const lines = STATEMENT_LINES.reduce((a, l) => a + f.lines[l], 0);
        expect(f.openingMicro + lines).toBe(f.closingMicro);
        expect(f.openingMicro).toBe(rows.reduce((a, r) => a + r.beforeMicro, 0));
        expect(f.rows).toBe(rows.reduce((a, r) => a + r.inside, 0));
        for (const l of STATEMENT_LINES)
          expect(f.lines[l]).toBe(
            rows.filter((r) => LINE_OF_KIND[r.kind] === l).reduce((a, r) => a + r.insideMicro, 0),
          );
      }),
      opts,
    );
  });
});

describe("closed-position figures (the ranking's, a provider's page's, own statistics')", () => {
  const tally = (nets: number[], heldMs = 0): ClosedTally =>
    nets.reduce<ClosedTally>(
      (t, n) =>
        addTally(t, {
          count: 1,
          wins: n > 0 ? 1 : 0,
          losses: n < 0 ? 1 : 0,
          netMicro: n,
          winNetMicro: n > 0 ? n : 0,
          lossNetMicro: n < 0 ? n : 0,
          bestMicro: n,
          worstMicro: n,
          heldMs,
        }),
      NO_TALLY,
    );

  it("add up in any grouping, NO_TALLY adding nothing", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 30 }), (nets) => {
        const whole = tally(nets);
        const k = Math.floor(nets.length / 2);
        expect(addTally(tally(nets.slice(0, k)), tally(nets.slice(k)))).toEqual(whole);
        expect(addTally(whole, NO_TALLY)).toEqual(whole);
      }),
      opts,
    );
  });

  it("give win rate, means rounded half away from zero, largest win and loss, holding time", () => {
    const f = tradeFigures(tally([3_000_000, -1_000_001, 0, 2_000_001, -2_000_000], 90_000));
    expect(f).toEqual({
      trades: 5,
      wins: 2,
      losses: 2,
      win_rate: 40,
      net_profit: "2.000000",
      average_win: "2.500001",
      average_loss: "-1.500001",
      largest_win: "3.000000",
      largest_loss: "-2.000000",
      average_holding_s: 90,
    });
    expect(tradeFigures(NO_TALLY)).toMatchObject({
      trades: 0,
      win_rate: 0,
      average_win: "0.000000",
      largest_loss: "0.000000",
    });
    expect(meanOf(-5, 2)).toBe(-3);
    expect(meanOf(5, 2)).toBe(3);
    expect(meanOf(7, 0)).toBe(0);
  });

  it("draw the closed curve with its largest fall below an earlier peak, in USD and percent", () => {
    const nets = [100, -30, 50, -80, 10].map((n, i) => ({ closed_at: i, net: n * 1e6 }));
    const fromZero = closedCurve(0, nets);
    expect(fromZero.points.map((p) => p[1] / 1e6)).toEqual([100, 70, 120, 40, 50]);
    expect(fromZero.maxDrawdownMicro).toBe(80e6);
    expect(closedCurve(1000e6, nets).maxDrawdownPct).toBe(Math.round((80 / 1120) * 10_000) / 100);
    // A fall is the same whatever the curve starts from.
    expect(closedCurve(1000e6, nets).maxDrawdownMicro).toBe(80e6);
    expect(closedCurve(0, []).maxDrawdownMicro).toBe(0);
  });
});

describe("the downloads' CSV", () => {
  /** RFC 4180 cells of one CSV text. */
  function parse(text: string): string[][] {
    const rows: string[][] = [];
    let row: string[] = [];
    let cell = "";
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (c === '"') quoted = false;
        else cell += c;
      } else if (c === '"') quoted = true;
      else if (c === ",") {
        row.push(cell);
        cell = "";
      } else if (c === "\r" && text[i + 1] === "\n") {
        row.push(cell);
        rows.push(row);
        row = [];
        cell = "";
        i++;
      } else cell += c;
    }
    return rows;
  }

  it("quotes what needs it, keeps numbers as numbers, defuses formulas; every line parses back", () => {
    expect(BOM).toBe("\uFEFF");
    expect(csvLine(["a", "b,c", 'say "hi"', { n: "-12.500000" }])).toBe(
      'a,"b,c","say ""hi""",-12.500000\r\n',
    );
    expect(csvCell("=SUM(A1)")).toBe("'=SUM(A1)");
    expect(csvCell("-1")).toBe("'-1");
    expect(csvCell({ n: "-1.000000" })).toBe("-1.000000");
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    const text = fc.string({ unit: "grapheme", maxLength: 20 });
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 1, maxLength: 6 }), { minLength: 1 }),
        (t) => {
          const back = parse(t.map((r) => csvLine(r)).join(""));
          expect(back).toEqual(t.map((r) => r.map((c) => (/^[=+\-@\t\r]/.test(c) ? `'${c}` : c))));
        },
      ),
      opts,
    );
  });
});

describe("a statement's money on screen, and the monthly bars", () => {
  it("show every micro-dollar in the reader's locale, exactly", () => {
    expect(formatExact("1234567.890001", "en")).toBe("1,234,567.890001");
    expect(formatExact("-0.250000", "en", { signed: true })).toBe("-0.25");
    expect(formatExact("250.250000", "en", { signed: true })).toBe("+250.25");
    expect(formatExact("0.000000", "en", { signed: true })).toBe("0.00");
    expect(formatExact("12345678901.123456", "de")).toBe("12.345.678.901,123456");
    expect(formatExact("abc", "en")).toBe("--");
    expect(formatDuration(90, "en")).toBe("1 min");
    expect(formatDuration(93_784, "en")).toBe("1 day 2 hr");
  });

  it("put each month's bar up for a gain and down for a loss, oldest at the reading start", () => {
    const bars = [
      { month: "2026-01", net: 100 },
      { month: "2026-02", net: -50 },
      { month: "2026-03", net: 0 },
    ];
    const ltr = barLayout(bars);
    expect(ltr.rects[0].y + ltr.rects[0].h).toBeCloseTo(ltr.zeroY);
    expect(ltr.rects[1].y).toBeCloseTo(ltr.zeroY);
    expect(ltr.rects[0].h).toBeCloseTo(ltr.rects[1].h * 2);
    expect(ltr.rects[0].x).toBeLessThan(ltr.rects[2].x);
    const rtl = barLayout(bars, true);
    expect(rtl.rects[0].x).toBeGreaterThan(rtl.rects[2].x);
    expect(barLayout([{ month: "2026-01", net: 0 }]).rects[0].h).toBe(0);
  });
});
