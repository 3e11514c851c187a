/**
 * Property: over random sequences of orders (market and pending, buy and sell, with trailing
 * stops, break-even and expiries), closes and partial closes, cancels, TP/SL and trailing edits,
 * expiry sweeps and price moves (including gaps that trigger TP/SL, trailing stops and
 * stop-outs), every account's balance equals the sum of its ledger rows, no order opens on money
 * that is not free (free margin is never negative right after an order is accepted), the book in
 * memory matches the store (stops included), a trailing stop never moves against its position, a
 * position and the parts closed from it always add up to the lots, margin and fee it opened with,
 * and a balance is never left negative without an open position.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { testDialect } from "../support/test-store.js";
import { rig } from "./engine-helpers.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { byLane, runSeed } from "../support/lane.js";

const CODES = ["EURUSD", "XAUUSD", "USDJPY"] as const;
const BASE: Record<string, number> = { EURUSD: 1.1, XAUUSD: 2400, USDJPY: 150 };
const PRECISION: Record<string, number> = { EURUSD: 5, XAUUSD: 2, USDJPY: 3 };
/** A distance of `frac` of `price` in whole points of the instrument ("" for none). */
const distance = (code: string, price: number, frac: number): string => {
  const d = (price * frac).toFixed(PRECISION[code]);
  return Number(d) > 0 ? d : "";
};
/** "YYYY-MM-DD HH:mm" UTC, `mins` minutes from now (a pending order's expiry). */
const minutesAhead = (mins: number): string =>
  new Date(Date.now() + mins * 60_000).toISOString().slice(0, 16);
const LEV: Record<string, number[]> = {
  EURUSD: [10, 100, 200],
  XAUUSD: [10, 100],
  USDJPY: [10, 200],
};

/** A fraction in basis points (fc.double would mostly draw values near 0). */
const bp = (min: number, max: number) => fc.integer({ min, max }).map((x) => x / 10000);

const op = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant("open" as const),
      user: fc.nat(2),
      code: fc.constantFrom(...CODES),
      side: fc.constantFrom(1, 2),
      lots: fc.integer({ min: 1, max: 40 }),
      lev: fc.nat(2),
      pending: fc.boolean(),
      off: bp(-300, 300),
      tp: bp(0, 500),
      sl: bp(0, 500),
      trail: bp(0, 200),
      act: bp(0, 100),
      be: bp(0, 150),
      expiry: fc.constantFrom("gtc", "day", "date"),
      mins: fc.integer({ min: 1, max: 600 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("part" as const),
      user: fc.nat(2),
      pick: fc.nat(50),
      share: fc.integer({ min: 1, max: 99 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("trail" as const),
      user: fc.nat(2),
      pick: fc.nat(50),
      trail: bp(0, 200),
      be: bp(0, 150),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("expire" as const),
      mins: fc.integer({ min: 0, max: 900 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant("close" as const), user: fc.nat(2), pick: fc.nat(50) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ k: fc.constant("cancel" as const), user: fc.nat(2), pick: fc.nat(50) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      k: fc.constant("stops" as const),
      user: fc.nat(2),
      pick: fc.nat(50),
      tp: bp(-400, 400),
      sl: bp(-400, 400),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      k: fc.constant("move" as const),
      code: fc.constantFrom(...CODES),
      pct: bp(-800, 800),
    }),
  },
);

/**
 * The run's seed (tests/support/lane.ts): fixed in `npm test`, new in the full lane, printed so a
 * failure can be replayed; PROPERTY_SEED replays a run.
 */
const SEED = runSeed(20261104);

/**
 * Whole engine runs: 60 on SQLite in `npm test`, 400 in the full lane; on PostgreSQL (the full lane
 * only), where each statement is a round trip, 100: the same rules, fewer sequences.
 */
const RUNS = testDialect() === "postgres" ? byLane(60, 100) : byLane(60, 400);
/**
 * The property's bound, there to end a hang, not to set a pace: the full lane's 100 PostgreSQL runs
 * took 67 s alone and more than 180 s beside the rest of that lane (2026-12-01).
 */
const TIMEOUT_MS = testDialect() === "postgres" ? 600_000 : 180_000;

describe("engine property", () => {
  it(
    "balance = sum of ledger, no free money spent twice, memory = store",
    async () => {
      const seen = { opened: 0, refused: 0, closedByEngine: 0, parts: 0, trailed: 0, expired: 0 };
      console.log(
        `engine property seed ${SEED} (replay: PROPERTY_SEED=${SEED} npx vitest run ${__filename})`,
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 5, maxLength: 40 }),
          fc.array(fc.integer({ min: 100, max: 20000 }), { minLength: 3, maxLength: 3 }),
          async (ops, deposits) => {
            // Each run gives the event loop a turn: on PostgreSQL the store's calls block it, and
            // the test runner's messages must still be answered during the whole property.
            await new Promise((resolve) => setImmediate(resolve));
            const r = rig();
            // What each order opened with (lots always; margin and fee for market orders), and the
            // last stop seen of each trailing position: the invariants below compare against them.
            const opened = new Map<number, { lots: number; margin?: number; fee?: number }>();
            const lastStop = new Map<number, { buy: boolean; sl: number }>();
            try {
              const users = deposits.map((d) => r.user(d));
              const price: Record<string, number> = { ...BASE };
              for (const c of CODES) r.feed.set(c, price[c]);
              for (const o of ops) {
                try {
                  if (o.k === "open") {
                    const u = users[o.user];
                    const px = price[o.code];
                    const dir = o.side === 1 ? 1 : -1;
                    const ref = o.pending ? px * (1 + o.off) : px;
                    const lev = LEV[o.code][o.lev % LEV[o.code].length];
                    const before = r.engine.accountValues(u);
                    const v = r.engine.submit(u, {
                      type: o.side,
                      cont: (o.lots / 100).toFixed(2),
                      forex_id: r.id(o.code),
                      status: o.pending ? 0 : 1,
                      target_price: ref.toFixed(5),
                      multiple: lev,
                      target_profit_price: o.tp ? (ref * (1 + dir * o.tp)).toFixed(5) : "",
                      stop_loss_price: o.sl ? (ref * (1 - dir * o.sl)).toFixed(5) : "",
                      trailing_distance: distance(o.code, ref, o.trail),
                      trailing_activation: o.trail ? distance(o.code, ref, o.act) : "",
                      break_even: distance(o.code, ref, o.be),
                      expiry: o.pending ? o.expiry : "gtc",
                      expires_at: o.expiry === "date" ? minutesAhead(o.mins) : "",
                    });
                    opened.set(v.Id, {
                      lots: o.lots,
                      ...(v.Status === 1
                        ? {
                            margin: Math.round(v.CautionMoney * 1e6),
                            fee: Math.round(v.TradeFee * 1e6),
                          }
                        : {}),
                    });
                    if (v.Status === 1) {
                      seen.opened++;
                      const after = r.engine.accountValues(u);
                      // The order was paid from free margin: margin + fee <= free margin before; never negative after.
                      expect(
                        Math.round(v.CautionMoney * 1e6) + Math.round(v.TradeFee * 1e6),
                      ).toBeLessThanOrEqual(Math.round(before.can_use * 1e6));
                      expect(after.can_use).toBeGreaterThanOrEqual(0);
                    }
                  } else if (o.k === "expire") {
                    seen.expired += r.engine.core.expireDue(Date.now() + o.mins * 60_000);
                  } else if (o.k === "part" || o.k === "trail") {
                    const u = users[o.user];
                    const list = r.engine.listOrders(u, 1, 1).data;
                    if (list.length === 0) continue;
                    const target = list[o.pick % list.length];
                    const code = target.ForexTradeLists.Code;
                    // The trader moves the stop: from here it trails from where they put it.
                    if (o.k === "trail") lastStop.delete(target.Id);
                    if (o.k === "part") {
                      const hundredths = Math.round(target.Quantity * 100);
                      const part = Math.max(1, Math.floor((hundredths * o.share) / 100));
                      r.engine.close(u, target.Id, null, (part / 100).toFixed(2));
                      if (part < hundredths) seen.parts++;
                    } else {
                      r.engine.setTrailing(u, {
                        id: target.Id,
                        trailing_distance: distance(code, price[code], o.trail),
                        break_even: distance(code, price[code], o.be),
                      });
                    }
                  } else if (o.k === "close" || o.k === "cancel" || o.k === "stops") {
                    const u = users[o.user];
                    const list = r.engine.listOrders(u, o.k === "cancel" ? 0 : 1, 1).data;
                    if (list.length === 0) continue;
                    const target = list[o.pick % list.length];
                    lastStop.delete(target.Id);
                    if (o.k === "close") r.engine.close(u, target.Id);
                    else if (o.k === "cancel") r.engine.cancel(u, target.Id);
                    else {
                      const px = price[target.ForexTradeLists.Code];
                      r.engine.setStops(
                        u,
                        target.Id,
                        o.tp > 0 ? (px * (1 + o.tp)).toFixed(5) : "0",
                        o.sl > 0 ? (px * (1 - o.sl)).toFixed(5) : "0",
                      );
                    }
                  } else {
                    price[o.code] = Math.max(price[o.code] * (1 + o.pct), 0.0001);
                    price[o.code] = r.feed.set(o.code, price[o.code]).price;
                  }
                } catch (e) {
                  if (!(e instanceof DomainError)) throw e;
                  if (e.key === "insufficient_margin") seen.refused++;
                  expect([
                    "insufficient_margin",
                    "tp_buy",
                    "sl_buy",
                    "tp_sell",
                    "sl_sell",
                    // A distance as large as the price itself (a long way off on a tiny price).
                    "distance_too_far",
                  ]).toContain(e.key);
                }
                // Memory and store agree on every live order's stops; a trailing stop never moves
                // against its position.
                for (const u of users)
                  for (const tab of [0, 1] as const)
                    for (const o of r.engine.listOrders(u, tab, 1).data) {
                      const stored = r.db
                        .prepare("SELECT stop_loss, take_profit FROM orders WHERE id = ?")
                        .get(o.Id) as { stop_loss: number | null; take_profit: number | null };
                      expect(stored.stop_loss ?? 0).toBe(o.TargetLossPrice);
                      expect(stored.take_profit ?? 0).toBe(o.TargetProfitPrice);
                      if (tab !== 1 || !o.TrailingDistance) continue;
                      const was = lastStop.get(o.Id);
                      const buy = o.OrderType === 1;
                      if (was && o.TargetLossPrice !== was.sl) {
                        seen.trailed++;
                        // From no stop to one is a move too; from a stop, only in the position's favour.
                        if (was.sl > 0 && buy)
                          expect(o.TargetLossPrice).toBeGreaterThanOrEqual(was.sl);
                        else if (was.sl > 0) expect(o.TargetLossPrice).toBeLessThanOrEqual(was.sl);
                      }
                      lastStop.set(o.Id, { buy, sl: o.TargetLossPrice });
                    }
                // A position and its closed parts add up to what it opened with.
                const families = r.db
                  .prepare(
                    `SELECT COALESCE(parent_id, id) AS root, SUM(CAST(lots AS REAL)) AS lots,
                     SUM(margin_micro) AS margin, SUM(fee_micro) AS fee
                   FROM orders GROUP BY COALESCE(parent_id, id)`,
                  )
                  .all() as { root: number; lots: number; margin: number; fee: number }[];
                for (const f of families) {
                  const o = opened.get(Number(f.root));
                  if (!o) continue;
                  expect(Math.round(f.lots * 100)).toBe(o.lots);
                  if (o.margin !== undefined) expect(Number(f.margin)).toBe(o.margin);
                  if (o.fee !== undefined) expect(Number(f.fee)).toBe(o.fee);
                }
                for (const u of users) {
                  const bal = r.balance(u);
                  expect(bal).toBe(r.ledgerSum(u));
                  const open = r.db
                    .prepare(
                      "SELECT COUNT(*) AS n, COALESCE(SUM(margin_micro), 0) AS m FROM orders WHERE user_id = ? AND status = 1",
                    )
                    .get(u) as { n: number; m: number };
                  const v = r.engine.accountValues(u);
                  expect(Math.round(v.all_caution_money * 1e6)).toBe(open.m);
                  if (open.n === 0) expect(bal).toBeGreaterThanOrEqual(0);
                }
                const live = r.db
                  .prepare(
                    "SELECT SUM(CASE WHEN status = 1 THEN 1 ELSE 0 END) AS o, SUM(CASE WHEN status = 0 THEN 1 ELSE 0 END) AS p FROM orders",
                  )
                  .get() as { o: number | null; p: number | null };
                expect(r.engine.stats()).toMatchObject({ open: live.o ?? 0, pending: live.p ?? 0 });
              }
              seen.closedByEngine += (
                r.db
                  .prepare(
                    "SELECT COUNT(*) AS n FROM orders WHERE close_reason IN ('take_profit','stop_loss','stop_out','trailing_stop')",
                  )
                  .get() as { n: number }
              ).n;
            } finally {
              r.close();
            }
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
      // The sequences did exercise the engine: orders filled, some refused for margin, some closed by ticks.
      expect(seen.opened).toBeGreaterThan(RUNS * 0.66);
      expect(seen.refused).toBeGreaterThan(RUNS / 30);
      expect(seen.closedByEngine).toBeGreaterThan(RUNS / 30);
      console.log("engine property exercised", seen);
      // … and the trader's tools: parts closed, trailing stops moved, pending orders expired.
      expect(seen.parts).toBeGreaterThan(RUNS / 10);
      expect(seen.trailed).toBeGreaterThan(0);
      expect(seen.expired).toBeGreaterThan(RUNS / 30);
      // RUNS whole engine runs: seconds on a quiet machine, far more on a loaded one.
    },
    TIMEOUT_MS,
  );
});
