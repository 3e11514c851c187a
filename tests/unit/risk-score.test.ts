/**
 * The risk score (contract/api/rank-rules.ts, docs/trading-rules.md "Risk score") over fixed
 * histories: a calm provider, a volatile one, a highly leveraged one, one trading a single
 * instrument; its bounds and that it never falls when an input grows.
 */
import { describe, expect, it } from "vitest";
import {
  annualisedVolatility,
  riskScore,
  RISK_SCORE,
  type RiskInputs,
} from "@contract/api/rank-rules";

/** `days` daily returns alternating +r and −r (a fixed history). */
const swinging = (r: number, days = 60) =>
  Array.from({ length: days }, (_, i) => (i % 2 === 0 ? r : -r));

const calm: RiskInputs = { dailyReturns: swinging(0.0005), leverage: 10, concentration: 0.3 };

describe("risk score", () => {
  it("annualises the root mean square of daily returns", () => {
    expect(annualisedVolatility([])).toBe(0);
    // ±1 % every day: 1 % × √365 = 19.10 % a year.
    expect(annualisedVolatility(swinging(0.01))).toBeCloseTo(19.105, 2);
    // One day's loss alone counts (the spread is taken around zero, not the mean).
    expect(annualisedVolatility([-0.02])).toBeCloseTo(38.21, 2);
  });

  it("scores a calm provider 1", () => {
    expect(annualisedVolatility(calm.dailyReturns)).toBeCloseTo(0.955, 2);
    expect(riskScore(calm)).toBe(1);
  });

  it("scores a volatile provider by its band", () => {
    // ±2 % a day: 38.2 % a year, at or above 7 of the 9 bands: band 8.
    expect(riskScore({ ...calm, dailyReturns: swinging(0.02) })).toBe(8);
    // ±0.3 % a day: 5.7 % a year: band 3.
    expect(riskScore({ ...calm, dailyReturns: swinging(0.003) })).toBe(3);
  });

  it("raises a highly leveraged provider one step per leverage step", () => {
    expect(riskScore({ ...calm, leverage: 30 })).toBe(2);
    expect(riskScore({ ...calm, leverage: 100 })).toBe(3);
    expect(riskScore({ ...calm, leverage: 400 })).toBe(4);
  });

  it("raises a provider trading one instrument", () => {
    expect(riskScore({ ...calm, concentration: 0.7 })).toBe(2);
    expect(riskScore({ ...calm, concentration: 1 })).toBe(3);
  });

  it("is at most 10 and at least 1, also for an empty or broken history", () => {
    expect(riskScore({ dailyReturns: swinging(0.05), leverage: 500, concentration: 1 })).toBe(10);
    expect(riskScore({ dailyReturns: [], leverage: 0, concentration: 0 })).toBe(1);
    expect(riskScore({ dailyReturns: [NaN], leverage: 1, concentration: 0 })).toBe(10);
  });

  it("never falls when volatility, leverage or concentration grows", () => {
    let prev: number = RISK_SCORE.min;
    for (let k = 0; k <= 40; k++) {
      const s = riskScore({
        dailyReturns: swinging(k * 0.001),
        leverage: k * 10,
        concentration: k / 40,
      });
      expect(s).toBeGreaterThanOrEqual(prev);
      expect(s).toBeLessThanOrEqual(RISK_SCORE.max);
      prev = s;
    }
    expect(prev).toBe(RISK_SCORE.max);
  });
});
