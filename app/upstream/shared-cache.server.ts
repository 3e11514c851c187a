/**
 * Answers that are the same for every visitor (the upstream's public market calls), kept for a short
 * time and shared by every page rendered meanwhile.
 *
 * Holds:
 * - only successful answers are kept; a failure is returned to its caller and the next one asks again;
 * - concurrent callers of one key wait for the same upstream call (one call per key at a time);
 * - an entry lives `ttlMs` from the moment its answer arrived; ttlMs 0 turns the cache off;
 * - at most MAX_ENTRIES keys (the oldest is dropped first), so odd parameters cannot grow it.
 */
import type { UpstreamResult } from "./client.server";

const MAX_ENTRIES = 2000;

interface Entry {
  at_ms: number;
  value: UpstreamResult<unknown>;
}

const kept = new Map<string, Entry>();
const inFlight = new Map<string, Promise<UpstreamResult<unknown>>>();

export async function shared<T>(
  key: string,
  ttl_ms: number,
  load: () => Promise<UpstreamResult<T>>,
): Promise<UpstreamResult<T>> {
  if (ttl_ms <= 0) return load();
  const hit = kept.get(key);
  if (hit && Date.now() - hit.at_ms < ttl_ms) return hit.value as UpstreamResult<T>;
  const pending = inFlight.get(key);
  if (pending) return pending as Promise<UpstreamResult<T>>;
  const call = load().then(
    (value) => {
      inFlight.delete(key);
      if (value.ok) {
        kept.delete(key);
        kept.set(key, { at_ms: Date.now(), value });
        if (kept.size > MAX_ENTRIES) kept.delete(kept.keys().next().value as string);
      }
      return value;
    },
    (err: unknown) => {
      inFlight.delete(key);
      throw err;
    },
  );
  inFlight.set(key, call);
  return call;
}

/** Forgets every kept answer (an operator's change must show at once; tests). */
export function clearShared(): void {
  kept.clear();
}
