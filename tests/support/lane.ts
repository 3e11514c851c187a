/**
 * The two lanes of the suite (tests/README.md, decision 0022):
 * - "fast": `npm test`, what CI runs. Deterministic by construction: every property, fuzz and soak
 *   test runs from a fixed seed, so a red run replays exactly.
 * - "full": `npm run test:full` (TEST_LANE=full). Everything of the fast lane, plus random seeds
 *   (printed with the command that replays them), more fuzz runs, the PostgreSQL reruns and the
 *   longer soaks.
 * A seed variable (PROPERTY_SEED, SOAK_SEED) set by hand wins in both lanes: a printed replay runs
 * the same sequence whichever lane it is run in.
 */

export type Lane = "fast" | "full";

/** This run's lane. */
export const LANE: Lane = process.env.TEST_LANE === "full" ? "full" : "fast";

/** `fast` in the fast lane, `full` in the full lane (run counts, kill counts). */
export function byLane<T>(fast: T, full: T): T {
  return LANE === "full" ? full : fast;
}

/**
 * The seed of a randomised test: the variable `envVar` when set (a replay), else `fixed` in the fast
 * lane and a new random seed in the full lane.
 */
export function runSeed(fixed: number, envVar = "PROPERTY_SEED"): number {
  const given = process.env[envVar];
  if (given !== undefined && given !== "") {
    const n = Number(given);
    if (!Number.isSafeInteger(n)) throw new Error(`${envVar} must be an integer, not "${given}"`);
    return n;
  }
  return LANE === "full" ? Math.floor(Math.random() * 2 ** 31) : fixed;
}
