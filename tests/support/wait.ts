/**
 * The one wait of the test tree: polls a condition until it holds or a bound passes. A failure
 * names what did not happen and the bound it had, so a red run says which wait ran out.
 */

/**
 * Resolves once `cond` holds, checking it first at once and then every `everyMs`; throws when it
 * still does not hold after `limitMs`. `what` is what the caller waits for, in a few words ("the
 * stream ends"). An error thrown by `cond` ends the wait with that error.
 */
export async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  limitMs = 5_000,
  everyMs = 10,
): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
