/**
 * Copy trading's rules that pages read in the browser too: the modes and statuses, the multiplier's
 * and the copy stop-loss's bounds, how a copy's lots follow the provider's, a provider's limits.
 * Kept apart from the endpoints so that a page's JavaScript that needs them does not carry the
 * endpoints' request and answer schemas (contract/README.md).
 */
import { Dec } from "../exact";
import type { DecimalRule } from "../fields";

export const COPY_MODES = ["proportional", "fixed"] as const;
export type CopyMode = (typeof COPY_MODES)[number];

export const COPY_STATUSES = ["active", "paused", "stopped"] as const;
export type CopyStatus = (typeof COPY_STATUSES)[number];

/** Why a copy ended: its owner stopped it, its copy stop-loss fired, or an operator stopped it. */
export const COPY_STOP_REASONS = ["user", "stop_loss", "operator"] as const;
export type CopyStopReason = (typeof COPY_STOP_REASONS)[number];

/** The proportional multiplier: 0.01 to 100, two decimals; 1 when not given. */
export const COPY_MULTIPLE = { min: "0.01", max: "100", default: "1" } as const;
export const MULTIPLE_RULE: DecimalRule = { intDigits: 3, places: 2 };

/**
 * The copy stop-loss, in percent of the money put in (5 to 95, 40 when not given): the copy ends,
 * every copied position closed at market, once its equity has lost this share of what was put in,
 * that is at an equity of invested × (100 − pct) / 100 (copyFloorMicro).
 */
export const COPY_STOP_LOSS_PCT = { min: 5, max: 95, default: 40 } as const;

/** Funds: add to the copy from free margin, or take back (never below what its positions need). */
export const COPY_FUNDS_DIRECTIONS = ["add", "remove"] as const;

/** The equity at which a copy's stop-loss fires, integer micro-USD (rounded up: never later). */
export function copyFloorMicro(investedMicro: number, stopLossPct: number): number {
  return Math.ceil((investedMicro * (100 - stopLossPct)) / 100);
}

/**
 * The lots a copy takes of a provider trade of `providerLots`, rounded down to the instrument's
 * lot step: proportional, provider lots × copy equity ÷ provider equity × multiplier; fixed, the
 * copy's own lots. Null when the provider's equity is not above 0 (nothing to scale by).
 */
export function copyLots(
  a: {
    mode: CopyMode;
    /** The multiplier (proportional) or the lots (fixed), as decimal text. */
    multiple: string;
    providerLots: string;
    copyEquityMicro: number;
    providerEquityMicro: number;
  },
  lotStep: string,
): string | null {
  const step = new Dec(lotStep);
  let lots: Dec;
  if (a.mode === "fixed") lots = new Dec(a.multiple);
  else {
    if (a.providerEquityMicro <= 0) return null;
    lots = new Dec(a.providerLots)
      .mul(Math.max(0, a.copyEquityMicro))
      .div(a.providerEquityMicro)
      .mul(a.multiple);
  }
  const steps = step.gt(0) ? lots.div(step).floor() : lots;
  return (step.gt(0) ? steps.mul(step) : steps).toFixed();
}

/**
 * A copy's share of a provider's partial close: the copy closes the same fraction of its own
 * position, `copy lots × closed / provider's lots before`, rounded down to the lot step (a copy
 * never closes more than the provider's fraction); "0" when that is less than one step. The caller
 * closes all of it instead when what would stay open is under the minimum lots.
 */
export function copyPartLots(
  a: { copyLots: string; closedLots: string; providerLotsBefore: string },
  lotStep: string,
): string {
  const step = new Dec(lotStep);
  const lots = new Dec(a.copyLots).mul(a.closedLots).div(a.providerLotsBefore);
  const steps = step.gt(0) ? lots.div(step).floor() : lots;
  return (step.gt(0) ? steps.mul(step) : steps).toFixed();
}

/** The least a provider may ask copiers to start with, and the most, USD. */
export const PROVIDER_MIN_INVESTMENT_MAX_USD = 1_000_000;
export const PROVIDER_NAME_MAX = 40;
export const PROVIDER_DESCRIPTION_MAX = 280;
