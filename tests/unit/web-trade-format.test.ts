import { describe, expect, it } from "vitest";
import {
  formatBalance,
  formatChartTime,
  formatCurveDate,
  formatProfit,
  formatMargin,
  formatFee,
  formatPrice,
  formatPercent,
  localeOf,
  inputValue,
} from "~/utils/format";

describe("amount formatting (product-spec.md section 9)", () => {
  it("balance 2 decimals, profit 6 with sign, margin and fee 6, price with PricePrecision", () => {
    expect(formatBalance(10000, "en")).toBe("10,000.00");
    expect(formatBalance(1234.5678, "en")).toBe("1,234.57");
    expect(formatProfit(1.5, "en")).toBe("+1.500000");
    expect(formatProfit(-0.1234567, "en")).toBe("-0.123457");
    expect(formatProfit(0, "en")).toBe("0.000000");
    expect(formatMargin(108.5, "en")).toBe("108.500000");
    expect(formatFee(0.05, "en")).toBe("0.050000");
    expect(formatPrice(1.0845, 5, "en")).toBe("1.08450");
    expect(formatPrice(65000.1, 2, "en")).toBe("65,000.10");
  });

  it("uses the user's locale: separators follow the language", () => {
    expect(formatBalance(1234.5, "de")).toBe("1.234,50");
    expect(formatBalance(1234.5, "fr")).toMatch(/^1\s?234,50$/u);
    expect(formatMargin(1, "ru")).toBe("1,000000");
    expect(localeOf("hk")).toBe("zh-Hant-HK");
    expect(localeOf("jp")).toBe("ja");
    expect(localeOf("spa")).toBe("es");
    expect(localeOf("xx")).toBe("en");
  });

  it("never shows -0 and shows -- for missing values", () => {
    expect(formatBalance(-0.001, "en")).toBe("0.00");
    expect(formatPercent(null, "en")).toBe("--");
    expect(formatBalance(undefined, "en")).toBe("--");
    expect(formatPercent(215.456, "en")).toBe("215.46%");
  });

  it("input values are plain and free of float noise", () => {
    expect(inputValue(0.1 + 0.2, 2)).toBe("0.3");
    expect(inputValue(1.23456789, 5)).toBe("1.23457");
  });
});

describe("dates and lot hints", () => {
  it("shows the upstream's UTC times through Intl in the user's locale", async () => {
    const { formatDateTime, formatLotHint } = await import("~/utils/format");
    expect(formatDateTime("2026-03-04 05:06:07", "en")).toBe("3/4/26, 5:06:07 AM");
    expect(formatDateTime("2026-03-04 05:06:07", "de")).toBe("04.03.26, 05:06:07");
    expect(formatDateTime(Date.UTC(2026, 2, 4, 5, 6, 7), "en")).toBe("3/4/26, 5:06:07 AM");
    expect(formatDateTime("", "en")).toBe("--");
    expect(formatLotHint(0.01, "en")).toBe("0.01");
    expect(formatLotHint(0.01, "fr")).toBe("0,01");
    expect(formatLotHint(1, "en")).toBe("1");
  });
});

describe("chart time labels (formatChartTime)", () => {
  // 2026-03-09 13:05 UTC, a Monday.
  const t = Date.UTC(2026, 2, 9, 13, 5);
  // ICU puts a narrow no-break space before AM/PM; compared here as a plain space.
  const label = (...args: Parameters<typeof formatChartTime>) =>
    formatChartTime(...args).replace(/[\u202f\u00a0]/g, " ");

  it("writes intraday times in the locale's own way, in UTC, the same for every intraday period", () => {
    expect(label(t, "1min", "en")).toBe("1:05 PM");
    expect(label(t, "60min", "en")).toBe("1:05 PM");
    expect(label(t, "5min", "de")).toBe("13:05");
    expect(label(t, "5min", "ru")).toBe("13:05");
    expect(label(t, "15min", "hk")).toMatch(/^下午1:05$/);
    expect(label(t, "1min", "ar")).toMatch(/^1:05 م$/);
  });

  it("writes daily candles as day and month, and tooltips with both", () => {
    expect(label(t, "1day", "en")).toBe("Mar 9");
    expect(label(t, "1day", "fr")).toBe("9 mars");
    expect(label(t, "1day", "jp")).toBe("3月9日");
    expect(label(t, "1min", "en", true)).toBe("Mar 9, 1:05 PM");
  });

  it("never mixes forms on one axis: every label of a period has the same shape", () => {
    const shapes = new Set(
      [0, 11, 12, 13, 23].map((h) =>
        label(Date.UTC(2026, 2, 9, h, 3), "1min", "en").replace(/\d/g, "9"),
      ),
    );
    expect([...shapes].every((s) => /^9{1,2}:99 (AM|PM)$/.test(s))).toBe(true);
  });
});

describe("an equity curve's axis dates (formatCurveDate)", () => {
  // 2026-11-28 14:30 UTC.
  const t = Date.UTC(2026, 10, 28, 14, 30);
  const DAY = 86_400_000;
  const bare = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/[\u202f\u00a0]/g, " ");

  it("follows the span shown: the time within two days, day and month, then month and year", () => {
    expect(bare(formatCurveDate(t, DAY, "en"))).toBe("2:30 PM");
    expect(bare(formatCurveDate(t, 30 * DAY, "en"))).toBe("Nov 28");
    expect(bare(formatCurveDate(t, 400 * DAY, "en"))).toBe("Nov 2026");
    expect(bare(formatCurveDate(t, 30 * DAY, "de"))).toBe("28. Nov.");
  });

  it("is never a cut numeric date, and keeps its figures' direction in Arabic", () => {
    for (const lang of ["en", "ar", "hk", "ru"]) {
      const label = formatCurveDate(t, 30 * DAY, lang);
      expect(label, lang).not.toMatch(/[/,]/);
      expect(label.startsWith("\u2068") && label.endsWith("\u2069"), lang).toBe(true);
    }
    expect(bare(formatCurveDate(t, 30 * DAY, "ar"))).toMatch(/^28 نوفمبر$/);
  });
});
