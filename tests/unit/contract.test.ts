/** The shared contract: formulas (with USD conversion of the quote currency), topics, boundaries. */
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import {
  floatArith as F,
  equity,
  feeUsd,
  freeMargin,
  marginLevelAtOrBelow,
  marginLevelPct,
  marginUsd,
  openCost,
  profitUsd,
  usdRate,
  withdrawNet,
} from "@contract/formulas";
import {
  FEE_TYPE,
  MARGIN_MODE,
  ORDER_TYPE,
  DRAW_FEE_TYPE,
  ORDER_TAB,
  STATUSES_OF_TAB,
  ORDER_STATUS,
} from "@contract/enums";
import { isTopic, klineCode, klineTopic, TOPIC } from "@contract/constants";
import { Dec, decimalArith as D } from "../../upstream/modules/money/decimal.js";

const quotes: Record<string, number> = {
  USDJPY: 150,
  EURUSD: 1.1,
  GBPUSD: 1.25,
  USDCHF: 0.8,
  USDCAD: 1.25,
};
const priceOf = (code: string) => quotes[code] ?? null;

describe("usdRate", () => {
  it("is 1 for USD, the CCYUSD price, or 1 / the USDCCY price", () => {
    expect(usdRate(F, "USD", priceOf)).toBe(1);
    expect(usdRate(F, "gbp", priceOf)).toBe(1.25);
    expect(usdRate(F, "JPY", priceOf)).toBeCloseTo(1 / 150, 12);
    expect(usdRate(F, "CHF", priceOf)).toBeCloseTo(1.25, 12);
  });
  it("is null when neither pair has a positive price", () => {
    expect(usdRate(F, "SEK", priceOf)).toBeNull();
    expect(usdRate(F, "JPY", (c) => (c === "USDJPY" ? 0 : null))).toBeNull();
  });
  it("skips a pair whose price is not positive and uses the other one", () => {
    const prices: Record<string, number> = { EURUSD: 0, USDEUR: 0.8, GBPUSD: -1, USDGBP: 0.5 };
    const of = (c: string) => prices[c] ?? null;
    expect(usdRate(F, "EUR", of)).toBeCloseTo(1.25, 12);
    expect(usdRate(F, "GBP", of)).toBeCloseTo(2, 12);
    expect(usdRate(F, "CHF", (c) => (c === "USDCHF" ? -0.8 : null))).toBeNull();
  });
  it("is the same over exact decimals: the rate the upstream books with, or null", () => {
    const dOf = (c: string) => (quotes[c] === undefined ? null : new Dec(quotes[c]));
    expect(usdRate(D, "USD", dOf)?.toString()).toBe("1");
    expect(usdRate(D, "GBP", dOf)?.toString()).toBe("1.25");
    expect(usdRate(D, "JPY", dOf)?.mul(150).toString()).toBe("1");
    expect(usdRate(D, "SEK", dOf)).toBeNull();
    expect(usdRate(D, "SEK", () => undefined)).toBeNull();
  });
});

describe("arithmetics", () => {
  it("compares as -1, 0 or 1", () => {
    expect([F.cmp(1, 2), F.cmp(2, 2), F.cmp(3, 2)]).toEqual([-1, 0, 1]);
    expect([D.cmp(new Dec(1), new Dec(2)), D.cmp(new Dec(2), new Dec(2))]).toEqual([-1, 0]);
  });
  it("float and exact decimals give the same figures (the estimate is what is booked)", () => {
    const n = (d: InstanceType<typeof Dec> | null) => (d === null ? null : d.toNumber());
    const terms = { contNum: 100_000, marginMode: MARGIN_MODE.LEVERAGE, feeRate: 0.002 };
    const dTerms = { contNum: new Dec(100_000), marginMode: 2, feeRate: new Dec("0.002") };
    const f = openCost(F, {
      lots: 0.3,
      inst: terms,
      price: 1.25,
      leverage: 50,
      feeType: 2,
      usdRate: 1,
    });
    const d = openCost(D, {
      lots: new Dec("0.3"),
      inst: dTerms,
      price: new Dec("1.25"),
      leverage: 50,
      feeType: 2,
      usdRate: new Dec(1),
    });
    expect(n(d.margin)).toBe(750);
    expect(n(d.fee)).toBe(1.5);
    expect(f.margin).toBeCloseTo(750, 9);
    expect(f.fee).toBeCloseTo(1.5, 9);
    expect(n(equity(D, new Dec(1000), new Dec(-150)))).toBe(equity(F, 1000, -150));
    expect(n(freeMargin(D, new Dec(850), new Dec(200)))).toBe(freeMargin(F, 850, 200));
    expect(n(withdrawNet(D, new Dec(100), DRAW_FEE_TYPE.RATE, new Dec("0.01"), new Dec(2)))).toBe(
      withdrawNet(F, 100, DRAW_FEE_TYPE.RATE, 0.01, 2),
    );
  });
});

describe("account values", () => {
  it("equity is balance plus floating profit; free margin is equity less the margin in use", () => {
    expect(equity(F, 1000, -150)).toBe(850);
    expect(equity(F, 1000, 25.5)).toBe(1025.5);
    expect(freeMargin(F, 850, 200)).toBe(650);
    expect(freeMargin(F, 100, 250)).toBe(-150);
  });
});

describe("margin and fee", () => {
  const usdjpy = { contNum: 100_000, marginMode: MARGIN_MODE.LEVERAGE, feeRate: 0.002 };
  it("converts a JPY-quoted margin to USD: 1 lot of USDJPY at 150, 1:100 is 1,000 USD", () => {
    const rate = usdRate(F, "JPY", priceOf)!;
    expect(marginUsd(F, 1, usdjpy, 150, 100, rate)).toBeCloseTo(1000, 9);
  });
  it("fixed margin mode is lots x units per lot, whatever the price and leverage", () => {
    expect(marginUsd(F, 2, { contNum: 100, marginMode: MARGIN_MODE.FIXED }, 2400, 50, 1)).toBe(200);
  });
  it("fee type 1 is per lot, otherwise margin x rate", () => {
    expect(feeUsd(F, FEE_TYPE.PER_LOT, 0.5, 3, 1000)).toBe(1.5);
    expect(feeUsd(F, FEE_TYPE.MARGIN_RATE, 0.5, 0.002, 1000)).toBe(2);
  });
  it("openCost gives both", () => {
    const c = openCost(F, {
      lots: 0.1,
      inst: { contNum: 100_000, marginMode: 2, feeRate: 0.002 },
      price: 1.1,
      leverage: 100,
      feeType: 2,
      usdRate: 1,
    });
    expect(c.margin).toBeCloseTo(110, 9);
    expect(c.fee).toBeCloseTo(0.22, 9);
  });
  it("refuses a leverage that is not positive", () => {
    expect(() => marginUsd(F, 1, usdjpy, 150, 0, 1)).toThrow(RangeError);
  });
});

describe("profit", () => {
  it("a buy gains when the price rises, a sell when it falls, in USD", () => {
    expect(profitUsd(F, ORDER_TYPE.BUY, 1.1, 1.2, 1000, 1)).toBeCloseTo(100, 9);
    expect(profitUsd(F, ORDER_TYPE.SELL, 1.1, 1.2, 1000, 1)).toBeCloseTo(-100, 9);
    expect(profitUsd(F, ORDER_TYPE.BUY, 150, 151, 100_000, 1 / 151)).toBeCloseTo(662.2516556, 6);
  });
  it("margin level is null without used margin", () => {
    expect(marginLevelPct(100, 0)).toBeNull();
    expect(marginLevelPct(150, 100)).toBe(150);
  });
  it("an account is at a level when its margin level is at or below it, never without margin used", () => {
    expect(marginLevelAtOrBelow(50, 100, 50)).toBe(true);
    expect(marginLevelAtOrBelow(49.99, 100, 50)).toBe(true);
    expect(marginLevelAtOrBelow(50.01, 100, 50)).toBe(false);
    expect(marginLevelAtOrBelow(-10, 0, 50)).toBe(false);
  });
});

describe("withdrawal net", () => {
  it("fee type 1 is fixed, otherwise a rate; never below 0", () => {
    expect(withdrawNet(F, 100, DRAW_FEE_TYPE.FIXED, 5, 1)).toBe(95);
    expect(withdrawNet(F, 100, DRAW_FEE_TYPE.RATE, 0.01, 2)).toBe(198);
    expect(withdrawNet(F, 3, DRAW_FEE_TYPE.FIXED, 5, 1)).toBe(0);
    expect(withdrawNet(F, -1, DRAW_FEE_TYPE.FIXED, 5, 1)).toBe(0);
  });
});

describe("topics and tabs", () => {
  it("names kline topics and recognises the served topics", () => {
    expect(klineTopic("EURUSD")).toBe("KLINE.EURUSD");
    expect(klineCode("KLINE.EURUSD")).toBe("EURUSD");
    expect(klineCode("DAY_MARKET")).toBeNull();
    expect(isTopic(TOPIC.FOREX_TRADE)).toBe(true);
    expect(isTopic("KLINE.")).toBe(false);
    expect(isTopic("NEWS")).toBe(false);
  });
  it("history lists closed and cancelled orders", () => {
    expect(STATUSES_OF_TAB[ORDER_TAB.HISTORY]).toEqual([
      ORDER_STATUS.CLOSED,
      ORDER_STATUS.CANCELLED,
    ]);
  });
});

describe("boundaries", () => {
  const root = path.resolve(__dirname, "../..");
  function sources(dir: string): string[] {
    const out: string[] = [];
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) out.push(...sources(rel));
      else if (/\.(ts|tsx)$/.test(e.name)) out.push(rel);
    }
    return out;
  }
  function imports(file: string): string[] {
    const src = fs.readFileSync(path.join(root, file), "utf8");
    return [
      ...src.matchAll(
        /(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
      ),
    ].map((m) => m[1] ?? m[2]);
  }
  it("the contract depends on nothing but zod, decimal.js (exact money), its HTML sanitiser and itself", () => {
    for (const f of sources("contract")) {
      for (const spec of imports(f)) {
        const ok =
          spec === "zod" ||
          spec === "decimal.js" ||
          // The allow-list both programs apply to article HTML (server-side only).
          (spec === "sanitize-html" && f.endsWith("content-html.ts")) ||
          (spec.startsWith(".") &&
            path.resolve(root, path.dirname(f), spec).startsWith(path.join(root, "contract")));
        expect(ok, `${f} imports ${spec}`).toBe(true);
      }
    }
  });
  /** Where a relative import lands, relative to the root ("" for a package). */
  function target(file: string, spec: string): string {
    return spec.startsWith(".")
      ? path.relative(root, path.resolve(root, path.dirname(file), spec))
      : "";
  }
  it("browser code takes only types from the endpoints' modules (their values are in *-rules.ts)", () => {
    // A value import of contract/api/<area>.ts would put every endpoint's request and answer
    // schemas into the page's JavaScript; the values pages need live in <area>-rules.ts.
    const browser = sources("app").filter((f) => !/\.server\.tsx?$/.test(f));
    for (const f of browser) {
      const src = fs.readFileSync(path.join(root, f), "utf8");
      for (const m of src.matchAll(
        /import\s+(type\s+)?\{([^}]*)\}\s+from\s+"@contract\/api\/(\w+)"/g,
      )) {
        const values = m[1]
          ? []
          : m[2]
              .split(",")
              .map((n) => n.trim())
              .filter((n) => n && !n.startsWith("type "));
        expect(values, `${f} imports values from @contract/api/${m[3]}`).toEqual([]);
      }
    }
  });
  it("the web imports nothing from the upstream, and the upstream nothing from the web", () => {
    for (const f of [...sources("app"), "server.ts"]) {
      for (const spec of imports(f))
        expect(target(f, spec).startsWith("upstream/"), `${f} imports ${spec}`).toBe(false);
    }
    for (const f of sources("upstream")) {
      for (const spec of imports(f))
        expect(
          spec.startsWith("~/") || target(f, spec).startsWith("app/"),
          `${f} imports ${spec}`,
        ).toBe(false);
    }
  });
});
