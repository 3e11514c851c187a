/**
 * A tick's bookings go through the leader's sequencer (EngineOptions.schedule): what a tick reaches
 * (take profit, stop loss, a pending order, a stop-out) is booked as a command of the next batch,
 * never written around it; its events come only once that batch is durable; a position reached
 * by several ticks before its booking runs is closed once; and a user's command queued before the
 * booking is decided first. Runs on both stores (unit-postgres too).
 */
import { afterEach, describe, expect, it } from "vitest";
import { ORDER_MODE, ORDER_STATUS, ORDER_TYPE, type CloseReason } from "@contract/enums";
import { dec } from "../../upstream/modules/money/decimal.js";
import { heldLeader } from "../support/held-writes.js";
import { until } from "../support/wait.js";
import { newUser } from "./engine-helpers.js";

const opened: Array<() => void> = [];

afterEach(() => {
  for (const close of opened.splice(0)) close();
});

/** An engine whose own commands go to a sequencer over a store whose batches the test releases. */
function leader() {
  const { db, store, held, money, seq, feed, engine, close } = heldLeader();
  opened.push(close);
  const closes: Array<{ id: number; reason: CloseReason }> = [];
  engine.events.on("positionsClosed", (e) => {
    for (const id of e.orderIds) closes.push({ id, reason: e.reason });
  });
  const stored = (id: number) =>
    db.prepare("SELECT status, close_reason FROM orders WHERE id = ?").get(id) as {
      status: number;
      close_reason: CloseReason | null;
    };
  const profitRows = (id: number) =>
    (
      db
        .prepare("SELECT COUNT(*) AS n FROM ledger WHERE ref = ? AND kind = 'realised_profit'")
        .get(`order:${id}`) as { n: number }
    ).n;
  const eurusd = feed.quote("EURUSD")!;
  feed.set("EURUSD", 1.1);
  const user = newUser(store, money, 10_000);
  /** A market buy of 0.1 lots at 1.1 with its take profit at 1.101. */
  const buy = () =>
    engine.submit(user, {
      side: ORDER_TYPE.BUY,
      status: ORDER_MODE.MARKET,
      instrumentId: eurusd.id,
      lots: dec("0.1"),
      leverage: 100,
      targetPrice: null,
      takeProfit: 1.101,
      stopLoss: null,
    });
  return { store, held, seq, feed, engine, user, closes, stored, profitRows, buy };
}

describe("a tick's bookings", () => {
  it("are a command of the next batch: nothing is written or announced before it is durable, and a stop reached twice closes once", async () => {
    const l = leader();
    const o = l.buy();
    l.feed.set("EURUSD", 1.1015);
    // Reached, not booked: the tick wrote nothing around the sequencer.
    expect(l.stored(o.id).status).toBe(ORDER_STATUS.OPEN);
    // A second tick past the stop before its booking has run.
    l.feed.set("EURUSD", 1.102);
    await until("the tick's bookings are handed to the store", () => l.held.length === 1);
    // Decided in the batch (closed in the store's transaction), not yet durable: not announced.
    expect(l.closes).toEqual([]);
    l.held[0]();
    await l.seq.idle();
    expect(l.closes).toEqual([{ id: o.id, reason: "take_profit" }]);
    expect(l.stored(o.id)).toEqual({ status: ORDER_STATUS.CLOSED, close_reason: "take_profit" });
    expect(l.profitRows(o.id)).toBe(1);
    // Both ticks' bookings ran, in one batch; the second found the position closed.
    expect(l.seq.stats).toMatchObject({ batches: 1, commands: 2 });
  });

  it("come after a user's command queued before them: the user's close is the one booked", async () => {
    const l = leader();
    const o = l.buy();
    const closing = l.seq.run(() => l.engine.close(l.user, o.id));
    l.feed.set("EURUSD", 1.1015);
    await until("the batch is handed to the store", () => l.held.length === 1);
    l.held[0]();
    await closing;
    await l.seq.idle();
    expect(l.closes).toEqual([{ id: o.id, reason: "manual" }]);
    expect(l.stored(o.id)).toEqual({ status: ORDER_STATUS.CLOSED, close_reason: "manual" });
    expect(l.profitRows(o.id)).toBe(1);
  });
});
