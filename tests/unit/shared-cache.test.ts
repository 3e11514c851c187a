/** The web's shared cache of public upstream answers (app/upstream/shared-cache.server.ts). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { clearShared, shared } from "../../app/upstream/shared-cache.server";
import type { UpstreamResult } from "../../app/upstream/client.server";

const ok = (n: number) => ({ ok: true, data: n }) as unknown as UpstreamResult<number>;
const failed = { ok: false, kind: "network" } as unknown as UpstreamResult<number>;

afterEach(() => {
  clearShared();
  vi.useRealTimers();
});

describe("shared answers", () => {
  it("concurrent callers of one key share one upstream call", async () => {
    const load = vi.fn(async () => ok(1));
    const all = await Promise.all([1, 2, 3, 4].map(() => shared("k", 1000, load)));
    expect(load).toHaveBeenCalledTimes(1);
    expect(all.every((r) => r.ok && r.data === 1)).toBe(true);
  });

  it("keeps an answer for its time to live, then asks again", async () => {
    vi.useFakeTimers();
    let n = 0;
    const load = vi.fn(async () => ok(++n));
    expect(await shared("k", 1000, load)).toEqual(ok(1));
    vi.advanceTimersByTime(999);
    expect(await shared("k", 1000, load)).toEqual(ok(1));
    vi.advanceTimersByTime(1);
    expect(await shared("k", 1000, load)).toEqual(ok(2));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("never keeps a failure", async () => {
    const load = vi.fn(async () => failed);
    await shared("k", 1000, load);
    await shared("k", 1000, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("keys are separate, and a time to live of 0 turns the cache off", async () => {
    const load = vi.fn(async () => ok(7));
    await shared("a", 1000, load);
    await shared("b", 1000, load);
    await shared("c", 0, load);
    await shared("c", 0, load);
    expect(load).toHaveBeenCalledTimes(4);
  });

  it("a thrown error reaches every waiting caller and is not kept", async () => {
    const load = vi.fn(async () => {
      throw new Error("boom");
    });
    const calls = [shared("k", 1000, load), shared("k", 1000, load)];
    for (const c of calls) await expect(c).rejects.toThrow("boom");
    await expect(shared("k", 1000, load)).rejects.toThrow("boom");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
