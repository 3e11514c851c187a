/**
 * Copy trading's mirroring is part of the provider's batch (engine.decided, the sequencer's
 * follow-up commands): every copy's order is decided and written in the same transaction as the
 * provider's fill, before the provider's answer and before any of it is announced; and a pending
 * order a tick fills is mirrored in the batch of that tick's bookings. Runs on both stores
 * (unit-postgres too).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ORDER_MODE, ORDER_STATUS, ORDER_TYPE } from "@contract/enums";
import { dec } from "../../upstream/modules/money/decimal.js";
import { CopyTrading } from "../../upstream/modules/copy/service.js";
import { liveCopies } from "../../upstream/modules/copy/store.js";
import { fundProvider } from "../../upstream/modules/follow/strategies.js";
import { heldLeader, leaderOn } from "../support/held-writes.js";
import { until } from "../support/wait.js";
import { makeCopiers } from "../bench/copiers.js";

type OrderMode = (typeof ORDER_MODE)[keyof typeof ORDER_MODE];

const COPIES = 3;
const opened: Array<() => void> = [];

afterEach(() => {
  for (const close of opened.splice(0)) close();
});

function leader() {
  const { store, held, money, seq, feed, engine, log, close, db } = heldLeader();
  const copying = new CopyTrading({ db: store, money, engine, log });
  opened.push(() => {
    copying.stop();
    close();
  });
  feed.set("EURUSD", 1.1);
  const provider = fundProvider(store, money, {
    name: "Batch Desk",
    style: "manual",
    capital: 10_000e6,
  });
  makeCopiers(store, money, copying, provider, COPIES);
  const opens: number[] = [];
  engine.events.on("orderPlaced", (e) => void opens.push(e.orderId));
  engine.events.on("orderActivated", (e) => void opens.push(e.orderId));
  /** Copies' orders of the provider's order (of any, for null). */
  const copiedOrders = (providerOrderId: number | null) =>
    (
      (providerOrderId === null
        ? db.prepare("SELECT COUNT(*) AS n FROM copy_trades WHERE order_id IS NOT NULL").get()
        : db
            .prepare(
              "SELECT COUNT(*) AS n FROM copy_trades WHERE provider_order_id = ? AND order_id IS NOT NULL",
            )
            .get(providerOrderId)) as { n: number }
    ).n;
  const order = (mode: OrderMode, targetPrice: number | null) => () =>
    engine.submit(provider, {
      side: ORDER_TYPE.BUY,
      status: mode,
      instrumentId: feed.quote("EURUSD")!.id,
      lots: dec("1"),
      leverage: 100,
      targetPrice,
      takeProfit: null,
      stopLoss: null,
    });
  /** Copies' positions still open that follow the provider's order. */
  const openFollowers = (providerOrderId: number) =>
    (
      db
        .prepare(
          `SELECT COUNT(*) AS n FROM copy_trades t JOIN orders o ON o.id = t.order_id
           WHERE t.provider_order_id = ? AND o.status = ${ORDER_STATUS.OPEN}`,
        )
        .get(providerOrderId) as { n: number }
    ).n;
  /**
   * A new engine, copy service and sequencer over the same store (its batches written as they
   * come), as a leader after a restart.
   */
  const restart = () => {
    copying.stop();
    engine.stop();
    const { money, seq, engine: again } = leaderOn(db, feed, log);
    const copies = new CopyTrading({ db, money, engine: again, log });
    opened.unshift(() => {
      copies.stop();
      again.stop();
    });
    return { seq, engine: again, provider };
  };
  return { db, held, seq, feed, engine, opens, copiedOrders, openFollowers, order, restart };
}

describe("copy mirroring", () => {
  it("writes every copy's order in the provider's batch, before its answer and before any push", async () => {
    const l = leader();
    let answered = false;
    const fill = l.seq.run(l.order(ORDER_MODE.MARKET, null)).then((o) => {
      answered = true;
      return o;
    });
    await until("the provider's batch is handed to the store", () => l.held.length === 1);
    // Written with the batch already: the provider's fill and each copy's order with it.
    expect(l.copiedOrders(null)).toBe(COPIES);
    expect(answered).toBe(false);
    expect(l.opens).toEqual([]);
    l.held[0]();
    const o = await fill;
    expect(l.copiedOrders(o.id)).toBe(COPIES);
    // One batch held the provider's order and every copy's; all announced after it.
    expect(l.seq.stats.batches).toBe(1);
    expect(l.opens).toHaveLength(1 + COPIES);
    expect(l.opens[0]).toBe(o.id);
  });

  it("closes every copy's position with the provider's, also after a restart (the followers are read from the store)", async () => {
    const l = leader();
    const fill = l.seq.run(l.order(ORDER_MODE.MARKET, null));
    await until("the provider's fill is handed to the store", () => l.held.length === 1);
    l.held[0]();
    const o = await fill;
    expect(l.openFollowers(o.id)).toBe(COPIES);
    const r = l.restart();
    await r.seq.run(() => r.engine.close(r.provider, o.id));
    expect(l.openFollowers(o.id)).toBe(0);
  });

  it("holds the live copies' accounts from a restart on, before any trade of their provider", () => {
    const l = leader();
    const r = l.restart();
    const accounts = liveCopies(l.db).map((c) => c.account_id);
    expect(accounts).toHaveLength(COPIES);
    for (const id of accounts) {
      const stored = (
        l.db.prepare("SELECT balance_micro FROM users WHERE id = ?").get(id) as {
          balance_micro: number;
        }
      ).balance_micro;
      expect(stored).toBeGreaterThan(0);
      // Held (null when not), at the stored balance: no position is open.
      expect(r.engine.heldEquityMicro(id)).toBe(Number(stored));
    }
  });

  it("holds a new copy's account from its start, at what moved into it, so that the first mirrored trade reads no balance", async () => {
    const l = leader();
    // makeCopiers started every copy on this leader: none was there when it started.
    for (const c of liveCopies(l.db)) {
      expect(l.engine.heldEquityMicro(c.account_id)).toBe(Number(c.invested_micro));
      const stored = l.db
        .prepare("SELECT balance_micro AS b FROM users WHERE id = ?")
        .get(c.account_id) as { b: number };
      expect(Number(stored.b)).toBe(Number(c.invested_micro));
    }
  });

  it("mirrors a provider's pending order in the batch of the tick that fills it", async () => {
    const l = leader();
    const pending = l.seq.run(l.order(ORDER_MODE.PENDING, 1.099));
    await until("the provider's pending order is handed to the store", () => l.held.length === 1);
    l.held[0]();
    const o = await pending;
    // A pending order is not a trade yet: nothing is copied.
    expect(l.copiedOrders(o.id)).toBe(0);
    l.opens.length = 0;
    l.feed.set("EURUSD", 1.0985);
    await until("the tick's bookings are handed to the store", () => l.held.length === 2);
    // Decided in the tick's batch (filled and mirrored), not yet durable: nothing announced.
    expect(l.copiedOrders(o.id)).toBe(COPIES);
    expect(l.opens).toEqual([]);
    l.held[1]();
    await l.seq.idle();
    expect(l.opens).toHaveLength(1 + COPIES);
    expect(l.seq.stats.batches).toBe(2);
  });
});
