/**
 * The operator settings the engine trades by (trading/settings.ts): held in memory, read again in
 * the background once a second old (the settings held answer meanwhile, so that no order's batch
 * waits on a read of the store), read at once after an operator's change (forget), and never put
 * back by a read begun before that change. On SQLite and on PostgreSQL (unit-postgres), where the
 * background read goes through a read connection.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { openTestStore } from "../support/test-store.js";
import type { DB } from "../../upstream/platform/db.js";
import { TradeSettings } from "../../upstream/modules/trading/settings.js";

let db: DB;
const T0 = Date.parse("2026-11-30T10:00:00Z");

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  db = openTestStore();
});
afterEach(() => {
  vi.useRealTimers();
  db.close();
});

const setMaxOrders = (n: number) =>
  db
    .prepare(
      `INSERT INTO settings (key, value) VALUES ('trade.max_orders', ?)
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    )
    .run(String(n));

describe("trade settings", () => {
  it("answer with the settings held while they are read again, then with what was read", async () => {
    setMaxOrders(7);
    const s = new TradeSettings(db);
    expect(s.get().maxOrders).toBe(7);
    setMaxOrders(9);
    // Within the second: the settings held, and no read.
    vi.setSystemTime(T0 + 999);
    expect(s.get().maxOrders).toBe(7);
    // A second old: still the settings held for this call, read again for the next ones.
    vi.setSystemTime(T0 + 1_000);
    expect(s.get().maxOrders).toBe(7);
    await vi.waitFor(() => expect(s.get().maxOrders).toBe(9), { timeout: 5_000, interval: 5 });
  });

  it("are read at once after an operator's change, and a read begun before it does not put back the old ones", async () => {
    setMaxOrders(7);
    const s = new TradeSettings(db);
    expect(s.get().maxOrders).toBe(7);
    vi.setSystemTime(T0 + 1_500);
    s.get(); // begins a read in the background, of 7 (on SQLite it has read already)
    setMaxOrders(11);
    s.forget();
    expect(s.get().maxOrders).toBe(11);
    // Whatever the earlier read brings back, it is dropped.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.get().maxOrders).toBe(11);
  });

  it("keep defaults for missing or malformed values", () => {
    db.prepare("DELETE FROM settings WHERE key = 'trade.max_orders'").run();
    db.prepare(
      `INSERT INTO settings (key, value) VALUES ('market.stale_after_s', 'soon')
       ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run();
    const s = new TradeSettings(db).get();
    expect(s.maxOrders).toBe(200);
    expect(s.staleAfterS).toBe(30);
  });
});
