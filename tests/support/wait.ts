/**
 * The one wait of the test tree: polls a condition until it holds or a bound passes. A failure
 * names what did not happen and the bound it had, so a red run says which wait ran out.
 */

/**
 * Resolves once `cond` holds, checking it first at once and then every `everyMs`; throws when it
 * still does not hold after `limitMs`. `what` is what the caller waits for, in a few words ("the
 * stream ends"). An error thrown by `cond` ends the wait with that error.
 *
 * `limitMs` is a bound for what never happens (a hang, a lost message), never a measure of how fast
 * it happens: a loaded machine runs the same test several times slower (measured: the suite beside
 * two busy loops on a 2-core machine). How fast is measured by the benchmarks (tests/bench). The
 * default leaves room for that; a caller passes a longer one for what takes long even when quiet.
 */
export async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  limitMs = 15_000,
  everyMs = 10,
): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const UTC_DAY_MS = 86_400_000;

/**
 * Resolves at once unless fewer than `marginMs` remain of the UTC day; then once the next UTC day
 * has begun. For a file whose expectations count one UTC day's totals (the money controls), so
 * its outcome is the same whatever the hour it runs at. Its hook's timeout must exceed `marginMs`.
 */
export async function clearOfUtcMidnight(marginMs = 90_000): Promise<void> {
  const left = UTC_DAY_MS - (Date.now() % UTC_DAY_MS);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 1_000));
}
