/**
 * Account values and risk rules of trading-rules.md ("Account values", "Risk"), pure functions.
 * Exact versions work on integer micro-USD; the engine's per-tick checks use the float twins.
 */
import { marginLevelAtOrBelow, marginLevelPct } from "@contract/formulas";

export interface AccountMicro {
  /** Cash balance (sum of the ledger). */
  balanceMicro: number;
  /** Sum of open positions' margin. */
  usedMarginMicro: number;
  /** Sum of open positions' floating profit, each rounded to micro-USD. */
  floatingMicro: number;
}

/** Equity (total, net value) = balance + floating profit. */
export function equityMicro(a: AccountMicro): number {
  return a.balanceMicro + a.floatingMicro;
}

/** Free margin (can_use) = equity - used margin. */
export function freeMarginMicro(a: AccountMicro): number {
  return equityMicro(a) - a.usedMarginMicro;
}

/** Margin level (HazardRate) in percent = equity / used margin x 100; null while no margin is used. */
export { marginLevelAtOrBelow, marginLevelPct };

/** Margin call: the level is at or below risk.margin_call_pct. */
export function isMarginCall(level: number | null, marginCallPct: number): boolean {
  return level !== null && level <= marginCallPct;
}

/** Stop-out: the level is at or below risk.stop_out_pct. */
export function isStopOut(level: number | null, stopOutPct: number): boolean {
  return level !== null && level <= stopOutPct;
}

export interface RiskPosition {
  id: number;
  /** Floating profit (USD or micro-USD; only the order matters). */
  profit: number;
  /** Margin held by the position, in the same unit as the account's used margin. */
  margin: number;
}

/**
 * Stop-out sequence: while the margin level is at or below the stop-out level, close the position
 * with the largest loss (lowest profit; ties: the lowest id), then re-check with the profit realised
 * and its margin released. Returns the ids to close, in order. Prices are those of the current tick.
 */
export function stopOutOrder(
  balance: number,
  positions: RiskPosition[],
  stopOutPct: number,
): number[] {
  const open = [...positions];
  let bal = balance;
  const closed: number[] = [];
  for (;;) {
    if (open.length === 0) break;
    let used = 0;
    let floating = 0;
    for (const p of open) {
      used += p.margin;
      floating += p.profit;
    }
    const level = marginLevelPct(bal + floating, used);
    if (!isStopOut(level, stopOutPct)) break;
    let worst = 0;
    for (let i = 1; i < open.length; i++) {
      const a = open[i];
      const w = open[worst];
      if (a.profit < w.profit || (a.profit === w.profit && a.id < w.id)) worst = i;
    }
    const [p] = open.splice(worst, 1);
    bal += p.profit;
    closed.push(p.id);
  }
  return closed;
}

/**
 * Negative balance protection: a balance below 0 with no open position is brought to 0. Returns the
 * amount of the 'protection' ledger row to book (0 when none is due).
 */
export function protectionAmount(balanceMicro: number, openPositions: number): number {
  return openPositions === 0 && balanceMicro < 0 ? -balanceMicro : 0;
}
