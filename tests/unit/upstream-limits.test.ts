/** The abuse limits' mechanism (upstream/platform/limits.ts) on an in-memory store. */
import { openTestStore } from "../support/test-store.js";
import { beforeEach, describe, expect, it } from "vitest";
import { type DB } from "../../upstream/platform/db.js";
import { LIMITS, Limits, addressSubject, parseLimitSpec } from "../../upstream/platform/limits.js";
import { RateLimitedError } from "../../upstream/platform/errors.js";
import { setSetting } from "../../upstream/platform/settings.js";
import { LANGS, translate } from "../../upstream/platform/i18n.js";

let db: DB;
beforeEach(() => {
  db = openTestStore();
});

async function refusal(p: Promise<unknown>): Promise<RateLimitedError | null> {
  try {
    await p;
    return null;
  } catch (err) {
    if (err instanceof RateLimitedError) return err;
    throw err;
  }
}

describe("limit figures", () => {
  it("parse POINTS/SECONDS[/BLOCK] and refuse anything else", () => {
    expect(parseLimitSpec("5/900")).toEqual({ points: 5, durationS: 900, blockS: 0 });
    expect(parseLimitSpec(" 5 / 900 / 60 ")).toEqual({ points: 5, durationS: 900, blockS: 60 });
    for (const bad of [undefined, "", "5", "0/10", "5/0", "-1/10", "a/b", "5/10/1/1", "1.5/10"])
      expect(parseLimitSpec(bad)).toBeNull();
  });

  it("come from the setting limit.NAME when valid, else from the defaults", () => {
    const limits = new Limits(db, true);
    expect(limits.spec("register_ip")).toEqual({
      points: LIMITS.register_ip.points,
      durationS: LIMITS.register_ip.durationS,
      blockS: 0,
    });
    setSetting(db, "limit.register_ip", "3/60");
    expect(limits.spec("register_ip")).toEqual({ points: 3, durationS: 60, blockS: 0 });
    setSetting(db, "limit.register_ip", "nonsense");
    expect(limits.spec("register_ip").points).toBe(LIMITS.register_ip.points);
  });
});

describe("Limits", () => {
  it("refuses the use past the points with the wait, and keeps counting in the store", async () => {
    setSetting(db, "limit.register_ip", "3/3600");
    const limits = new Limits(db, true);
    for (let i = 0; i < 3; i++) await limits.consume(["register_ip", "1.2.3.4"]);
    const err = await refusal(limits.consume(["register_ip", "1.2.3.4"]));
    expect(err?.status).toBe(429);
    expect(err?.code).toBe(429);
    expect(err?.retryAfterS).toBeGreaterThan(3590);
    expect(err?.retryAfterS).toBeLessThanOrEqual(3600);
    expect(err?.key).toBe("limits.retry");
    expect(err?.params).toEqual({ wait: { unit: "minute", value: 60 } });
    // Another subject is not affected; a second Limits on the same store (a restart) still refuses.
    await limits.consume(["register_ip", "5.6.7.8"]);
    expect(await refusal(new Limits(db, true).consume(["register_ip", "1.2.3.4"]))).not.toBeNull();
  });

  it("counts parallel uses atomically", async () => {
    setSetting(db, "limit.demo_ip", "4/60");
    const limits = new Limits(db, true);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => refusal(limits.consume(["demo_ip", "ip"]))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(4);
  });

  it("gives back the other checks' uses when one refuses", async () => {
    setSetting(db, "limit.code_send_ip", "1/60");
    const limits = new Limits(db, true);
    await limits.consume(["code_send_ip", "ip"]);
    expect(
      await refusal(limits.consume(["code_send_recipient", "r"], ["code_send_ip", "ip"])),
    ).not.toBeNull();
    expect(
      db.prepare("SELECT points FROM rate_limits WHERE key = ?").get("code_send_recipient:r"),
    ).toEqual({ points: 0 });
  });

  it("blocks for blockS once spent; clear and refund give uses back", async () => {
    setSetting(db, "limit.login_account_ip", "2/60/600");
    const limits = new Limits(db, true);
    await limits.consume(["login_account_ip", "a"], ["login_account_ip", "a"]);
    const err = await refusal(limits.consume(["login_account_ip", "a"]));
    expect(err?.retryAfterS).toBeGreaterThan(590);
    await limits.clear("login_account_ip", "a");
    await limits.consume(["login_account_ip", "a"]);
    await limits.refund(["login_account_ip", "a"]);
    await limits.consume(["login_account_ip", "a"], ["login_account_ip", "a"]);
    // A refund of an unused subject opens no credit.
    await limits.refund(["login_account_ip", "fresh"]);
    await limits.consume(["login_account_ip", "fresh"], ["login_account_ip", "fresh"]);
    expect(await refusal(limits.consume(["login_account_ip", "fresh"]))).not.toBeNull();
  });

  it("counts the per-second order limits in memory, not in the store", async () => {
    const limits = new Limits(db, true);
    for (let i = 0; i < LIMITS.order_second.points; i++)
      await limits.consume(["order_second", "7"], ["order_minute", "7"]);
    const err = await refusal(limits.consume(["order_second", "7"], ["order_minute", "7"]));
    expect(err?.key).toBe("limits.retry");
    expect(err?.params).toEqual({ wait: { unit: "second", value: 1 } });
    expect(err?.retryAfterS).toBe(1);
    expect(db.prepare("SELECT COUNT(*) AS n FROM rate_limits").get()).toEqual({ n: 0 });
  });

  /**
   * Uses far past two limits, one after the other: demo_ip set to 1 a minute (counted in the
   * store) and order_second (counted in memory). Answers how many of each were refused.
   */
  async function overuse(limits: Limits): Promise<{ stored: number; inMemory: number }> {
    setSetting(db, "limit.demo_ip", "1/60");
    let stored = 0;
    for (let i = 0; i < 20; i++) if (await refusal(limits.consume(["demo_ip", "ip"]))) stored++;
    let inMemory = 0;
    for (let i = 0; i < LIMITS.order_second.points * 3; i++)
      if (await refusal(limits.consume(["order_second", "7"]))) inMemory++;
    return { stored, inMemory };
  }

  it("does nothing while switched off: no use is refused and nothing is counted", async () => {
    expect(await overuse(new Limits(db, false))).toEqual({ stored: 0, inMemory: 0 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM rate_limits").get()).toEqual({ n: 0 });
  });

  it("refuses the same uses when switched on", async () => {
    const refused = await overuse(new Limits(db, true));
    // All but the first of demo_ip's. Of order_second's 30 uses at 10 a second, those past 10 within
    // one second: 20, or fewer should the loop straddle a second, but some in any case.
    expect(refused.stored).toBe(19);
    expect(refused.inMemory).toBeGreaterThan(0);
    // demo_ip's use is counted in the store, order_second's is not.
    expect(db.prepare("SELECT key FROM rate_limits").all()).toEqual([{ key: "demo_ip:ip" }]);
  });
});

describe("addressSubject", () => {
  it("keeps IPv4, unwraps IPv4-mapped addresses and groups IPv6 by /64", () => {
    expect(addressSubject("203.0.113.9")).toBe("203.0.113.9");
    expect(addressSubject("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressSubject("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:0DB8:0001:0002:ffff::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    expect(addressSubject("fe80::1:2:3:4")).toBe("fe80:0:0:0::/64");
    expect(addressSubject("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });
});

describe("RateLimitedError", () => {
  it("says the wait in seconds, minutes or hours, in every language, with its plural form", () => {
    const wait = (ms: number) => new RateLimitedError(ms).params.wait;
    expect(wait(1)).toEqual({ unit: "second", value: 1 });
    expect(wait(59_000)).toEqual({ unit: "second", value: 59 });
    expect(wait(61_000)).toEqual({ unit: "minute", value: 2 });
    expect(wait(120 * 60_000)).toEqual({ unit: "minute", value: 120 });
    expect(wait(121 * 60_000)).toEqual({ unit: "hour", value: 3 });
    // Intl joins number and unit with a no-break space where the language wants one (French).
    const say = (lang: Parameters<typeof translate>[0], ms: number) =>
      translate(lang, "limits.retry", new RateLimitedError(ms).params).replace(
        /\u00a0|\u202f/g,
        " ",
      );
    expect(say("en", 1000)).toBe("Too many attempts. Try again in 1 second.");
    expect(say("en", 15 * 60_000)).toBe("Too many attempts. Try again in 15 minutes.");
    expect(say("de", 1000)).toBe("Zu viele Versuche. Bitte versuchen Sie es in 1 Sekunde erneut.");
    expect(say("de", 3 * 3_600_000 - 5)).toBe(
      "Zu viele Versuche. Bitte versuchen Sie es in 3 Stunden erneut.",
    );
    expect(say("fr", 59_000)).toBe("Trop de tentatives. Réessayez dans 59 secondes.");
    expect(say("ru", 15 * 60_000)).toBe("Слишком много попыток. Повторите через 15 мин.");
    for (const lang of LANGS) expect(say(lang, 5 * 60_000)).not.toMatch(/\{\{|\[object/);
  });
});
