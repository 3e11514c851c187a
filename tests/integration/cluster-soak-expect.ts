/** What every cluster soak in the tests must show (cluster.test, soak-cluster.test). */
import { expect } from "vitest";
import { SUITE_TAKE_OVER_BOUND_MS, type ClusterSoakResult } from "../soak/cluster";

/**
 * No breach, every kill taken over within the suite's bound (SUITE_TAKE_OVER_BOUND_MS), nothing
 * acknowledged lost or doubled, ledger clean.
 */
export function expectClusterSoakHeld(r: ClusterSoakResult, kills: number): void {
  expect(r.breaches).toEqual([]);
  expect(r.failovers).toHaveLength(kills);
  for (const f of r.failovers) {
    expect(f.leader).not.toBe(f.killed);
    expect(f.leadMs).toBeLessThan(SUITE_TAKE_OVER_BOUND_MS);
    expect(f.firstAckMs).toBeLessThan(SUITE_TAKE_OVER_BOUND_MS);
  }
  expect(r.orders).toBeGreaterThan(0);
  expect(r.lost).toBe(0);
  expect(r.duplicates).toBe(0);
  expect(r.replayed).toBe(r.acknowledged);
  expect(r.invariantBreaches).toBe(0);
  expect(r.ledgerCheckExit).toBe(0);
}
