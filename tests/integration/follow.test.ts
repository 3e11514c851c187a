/**
 * The ranking over HTTP (contract/api/follow.ts): the strategy traders trade through the real order
 * engine on a manual feed, and follow/list's figures equal those computed by hand from their closed
 * positions in the store; the 21-day window's edge; only strategy traders appear; the accounts are
 * funded by a ledger adjustment and cannot sign in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE } from "@contract/envelope";
import { RANK_WINDOW_DAYS, type FollowItem, type FollowStats } from "@contract/api/follow";
import { STRATEGIES, STRATEGY_CAPITAL_USD } from "../../upstream/modules/follow/strategies.js";
import { checkLedger } from "../../upstream/modules/money/check.js";
import { startUpstream, type Server } from "./upstream-harness.js";
import { forgetRanking } from "../../upstream/modules/follow/ranking.js";
import { RankCheckpoints } from "../../upstream/modules/follow/checkpoints.js";
import { advanceCheckpoint, checkpointOf } from "../../upstream/modules/follow/store.js";
import { closedTotals, instrumentsTraded } from "../../upstream/modules/copy/store.js";

let s: Server;
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  s = await startUpstream({
    manualFeed: true,
    // The runner is driven step by step below; its own timer never fires within the test.
    config: { marketAlwaysOpen: true, strategies: "on", strategyIntervalMs: 3_600_000 },
  });
}, 30_000);

afterAll(async () => {
  await s?.close();
});

/** Moves every traded instrument by `factor` and runs one strategy step. */
/** Moves every strategy's market by `factor`, then the strategies; waits for what both set off. */
async function step(factor: number): Promise<void> {
  for (const code of new Set(STRATEGIES.flatMap((d) => d.codes))) {
    const q = s.feed!.quote(code)!;
    await s.tick(code, q.price * factor);
  }
  s.up.strategies!.runStep();
  await s.settled();
}

interface Row {
  name: string;
  profit_micro: number;
  fee_micro: number;
  leverage: number;
  show_code: string;
  closed_at: number;
}

function closedRows(): Row[] {
  return s.up.ctx.db
    .prepare(
      `SELECT t.user_id, t.name, o.profit_micro, o.fee_micro, o.leverage, i.show_code, o.closed_at
       FROM orders o JOIN strategy_traders t ON t.user_id = o.user_id
       JOIN instruments i ON i.id = o.instrument_id WHERE o.status = 3`,
    )
    .all() as Row[];
}

/** The user id of the strategy trader `name` and its closed positions' ids, oldest first. */
function closedOf(name: string): { uid: number; ids: number[] } {
  const db = s.up.ctx.db;
  const uid = (
    db.prepare("SELECT user_id FROM strategy_traders WHERE name = ?").get(name) as {
      user_id: number;
    }
  ).user_id;
  const ids = (
    db.prepare("SELECT id FROM orders WHERE user_id = ? AND status = 3 ORDER BY id").all(uid) as {
      id: number;
    }[]
  ).map((x) => x.id);
  return { uid, ids };
}

/** The figures of one trader computed here, independently of the upstream's SQL. */
function byHand(name: string, now: number): Omit<FollowStats, "id" | "multiple" | "code"> {
  const capital = Number(STRATEGY_CAPITAL_USD) * 1e6;
  const rows = closedRows().filter((r) => r.name === name);
  const from = now - RANK_WINDOW_DAYS * DAY_MS;
  const net = (r: Row) => r.profit_micro - r.fee_micro;
  const win = rows.filter((r) => r.closed_at > from);
  const before = rows.filter((r) => r.closed_at <= from);
  const winNet = win.reduce((a, r) => a + net(r), 0);
  const startEquity = capital + before.reduce((a, r) => a + net(r), 0);
  const pct = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 10000) / 100 : 0);
  return {
    user: name,
    three_week_rate: pct(winNet, startEquity),
    three_week_win: pct(win.filter((r) => net(r) > 0).length, win.length),
    three_week_profit: (Math.round(winNet / 1e4) / 100).toFixed(2),
    total_rate: pct(winNet + before.reduce((a, r) => a + net(r), 0), capital),
    total_trade_num: rows.length,
  };
}

describe("strategy traders", () => {
  it("are real accounts funded by one adjustment each, that cannot sign in", () => {
    const db = s.up.ctx.db;
    const rows = db
      .prepare(
        `SELECT u.email, u.mobile, u.password_hash, u.is_demo, u.balance_micro, t.name
         FROM strategy_traders t JOIN users u ON u.id = t.user_id`,
      )
      .all() as Record<string, unknown>[];
    expect(rows.map((r) => r.name).sort()).toEqual(STRATEGIES.map((d) => d.name).sort());
    for (const r of rows) {
      expect(r).toMatchObject({ email: null, mobile: null, password_hash: null, is_demo: 0 });
    }
    const funding = db
      .prepare(
        "SELECT COUNT(*) AS n, SUM(amount_micro) AS sum FROM ledger WHERE kind = 'adjustment' AND ref LIKE 'strategy:%'",
      )
      .get() as { n: number; sum: number };
    expect(funding.n).toBe(STRATEGIES.length);
    expect(funding.sum).toBe(STRATEGIES.length * Number(STRATEGY_CAPITAL_USD) * 1e6);
  });

  it("trade through the order engine, and follow/list's figures equal the closed positions'", async () => {
    // Rising, then falling, then rising prices: trend, mean-reversion and breakout traders all act.
    const moves = [1.001, 1.002, 1.001, 0.998, 0.997, 0.999, 1.003, 1.002, 0.996, 1.004];
    for (let i = 0; i < 4; i++) for (const m of moves) await step(m);
    const rows = closedRows();
    expect(rows.length).toBeGreaterThan(10);
    expect(new Set(rows.map((r) => r.name)).size).toBe(STRATEGIES.length);

    const r = await s.get<FollowItem[]>("/api/follow/list");
    expect(r.code).toBe(CODE.OK);
    expect(r.data.map((i) => i.user).sort()).toEqual(STRATEGIES.map((d) => d.name).sort());
    const now = Date.now();
    for (const item of r.data) {
      expect(item).toMatchObject(byHand(item.user, now));
      const def = STRATEGIES.find((d) => d.name === item.user)!;
      expect(item.multiple).toBe(def.leverage);
      const codes = new Set(
        closedRows()
          .filter((x) => x.name === item.user)
          .map((x) => x.show_code),
      );
      expect(codes.has(item.code)).toBe(true);
    }
    const rates = r.data.map((i) => i.three_week_rate);
    expect([...rates].sort((a, b) => b - a)).toEqual(rates);
    // Every booking of the trading went through the money service: the ledger still adds up.
    expect(checkLedger(s.up.ctx.db).findings).toEqual([]);
  });

  it("counts a position closed exactly 21 days ago before the window, one a second later in it", async () => {
    const db = s.up.ctx.db;
    const name = STRATEGIES[0].name;
    const { ids } = closedOf(name);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const now = Date.now();
    const edge = now - RANK_WINDOW_DAYS * DAY_MS;
    db.prepare("UPDATE orders SET closed_at = ? WHERE id = ?").run(edge - 60_000, ids[0]);
    db.prepare("UPDATE orders SET closed_at = ? WHERE id = ?").run(edge + 60_000, ids[1]);
    // Changed behind the upstream's back: the list kept in memory is let go first.
    forgetRanking(s.up.ctx);
    const item = (await s.get<FollowItem[]>("/api/follow/list")).data.find((i) => i.user === name)!;
    const hand = byHand(name, Date.now());
    expect(item).toMatchObject(hand);
    const inWindow = closedRows().filter((r) => r.name === name && r.closed_at > edge).length;
    expect(item.total_trade_num - inWindow).toBe(1);
  });

  it("is kept in memory for its 10 s; a close of a listed trader's position shows at once", async () => {
    const list = async () => (await s.get<FollowItem[]>("/api/follow/list")).data;
    const trades = (items: FollowItem[]) => items.reduce((a, i) => a + i.total_trade_num, 0);
    const first = await list();
    expect(trades(first)).toBe(closedRows().length);
    // A change the engine did not make is not seen within the 10 s: the list is not read again.
    const db = s.up.ctx.db;
    const one = (
      db.prepare("SELECT MIN(id) AS id FROM orders WHERE status = 3").get() as {
        id: number;
      }
    ).id;
    db.prepare("UPDATE orders SET status = 4 WHERE id = ?").run(one);
    expect(trades(await list())).toBe(trades(first));
    db.prepare("UPDATE orders SET status = 3 WHERE id = ?").run(one);
    // A position of a listed trader closed by the engine: the next request counts it.
    const before = closedRows().length;
    const moves = [1.004, 0.994, 1.006, 0.993, 1.005, 0.995];
    for (let i = 0; i < 5 && closedRows().length === before; i++)
      for (const m of moves) await step(m);
    expect(closedRows().length).toBeGreaterThan(before);
    expect(trades(await list())).toBe(closedRows().length);
  });

  it("reads no position closed before a trader's checkpoint, and moving it changes no figure", async () => {
    const db = s.up.ctx.db;
    const name = STRATEGIES[1].name;
    const { uid, ids } = closedOf(name);
    expect(ids.length).toBeGreaterThanOrEqual(3);
    // Two positions closed 40 and 30 days ago: before the window and before where a checkpoint goes.
    const now = Date.now();
    db.prepare("UPDATE orders SET closed_at = ? WHERE id = ?").run(now - 40 * DAY_MS, ids[0]);
    db.prepare("UPDATE orders SET closed_at = ? WHERE id = ?").run(now - 30 * DAY_MS, ids[1]);
    const mine = async () => {
      forgetRanking(s.up.ctx);
      return (await s.get<FollowItem[]>("/api/follow/list")).data.find((i) => i.user === name)!;
    };
    const without = await mine();
    expect(without).toMatchObject(byHand(name, Date.now()));
    // The provider page's figures of every close, and the instruments traded.
    const page = () => ({ totals: closedTotals(db, uid), instruments: instrumentsTraded(db, uid) });
    const pageWithout = page();
    expect(pageWithout.totals.n).toBe(ids.length);

    const checkpoints = new RankCheckpoints({
      db,
      run: async (command) => command(),
      onError: (err) => {
        throw err;
      },
    });
    expect(await checkpoints.advance()).toBe(STRATEGIES.length);
    const cp = checkpointOf(db, uid);
    expect(cp.uptoMs).toBeLessThanOrEqual(Date.now() - RANK_WINDOW_DAYS * DAY_MS);
    expect(cp.count).toBe(2);
    // The same figures from the checkpoint and what closed after it; moving it back does nothing.
    expect(await mine()).toEqual(without);
    expect(page()).toEqual(pageWithout);
    expect(advanceCheckpoint(db, uid, cp.uptoMs - DAY_MS)).toBe(false);
    expect(await checkpoints.advance()).toBe(STRATEGIES.length);

    // A row before the checkpoint is not read again: changing it moves no figure.
    const old = db.prepare("SELECT profit_micro FROM orders WHERE id = ?").get(ids[0]) as {
      profit_micro: number;
    };
    db.prepare("UPDATE orders SET profit_micro = ? WHERE id = ?").run(
      Number(old.profit_micro) + 1_000_000_000,
      ids[0],
    );
    try {
      expect(await mine()).toEqual(without);
      expect(page()).toEqual(pageWithout);
      expect(byHand(name, Date.now())).not.toMatchObject({ total_rate: without.total_rate });
    } finally {
      db.prepare("UPDATE orders SET profit_micro = ? WHERE id = ?").run(old.profit_micro, ids[0]);
    }
  });

  it("never lists ordinary accounts", async () => {
    const users = (s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
    const r = await s.get<FollowItem[]>("/api/follow/list");
    expect(r.data.length).toBe(STRATEGIES.length);
    expect(users).toBeGreaterThanOrEqual(STRATEGIES.length);
  });
});
