/**
 * Strategy traders: a few real accounts that the reference upstream trades itself on the simulated
 * market, so that a fresh install has a real ranking. Each is funded once by an adjustment (a
 * ledger row through the money service) and places market orders with take-profit and stop-loss
 * through the order engine like any user; its positions close by those levels or after a planned
 * number of steps. Nothing here touches balances directly, and the runner never blocks the feed's
 * tick: it acts on its own timer, one small step at a time.
 */
import { writeAudit } from "../operators/audit.js";
import { ORDER_MODE, ORDER_TAB, ORDER_TYPE } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { dec, usdToMicro } from "../money/decimal.js";
import type { MoneyService } from "../money/service.js";
import type { PriceFeed } from "../market/feed.js";
import type { Engine } from "../trading/engine.js";
import { insertTrader, insertTraderUser, instrumentSpecs, traderIdByName } from "./store.js";

export type Style = "trend" | "mean_reversion" | "breakout";

export interface StrategyDef {
  name: string;
  style: Style;
  /** Instruments it trades, in turn. */
  codes: string[];
  leverage: number;
  /** Lots of each order (a multiple of every traded instrument's step). */
  lots: string;
  /** Take-profit and stop-loss distances from the fill, as shares of the price. */
  takeProfit: number;
  stopLoss: number;
  /** Steps a position is held at most (one of min..max, drawn per position). */
  hold: [number, number];
}

/** The starting capital of every strategy trader, USD. */
export const STRATEGY_CAPITAL_USD = "10000";

/** Crypto trades every day; the others on weekdays (the simulated market's hours). */
export const STRATEGIES: readonly StrategyDef[] = [
  {
    name: "Aurora FX",
    style: "trend",
    codes: ["EURUSD", "GBPUSD", "USDJPY"],
    leverage: 100,
    lots: "0.5",
    takeProfit: 0.0008,
    stopLoss: 0.0005,
    hold: [2, 6],
  },
  {
    name: "Kestrel Macro",
    style: "mean_reversion",
    codes: ["XAUUSD", "XAGUSD"],
    leverage: 50,
    lots: "0.2",
    takeProfit: 0.001,
    stopLoss: 0.0012,
    hold: [2, 5],
  },
  {
    name: "Northwind Digital",
    style: "breakout",
    codes: ["BTCUSD", "ETHUSD"],
    leverage: 10,
    lots: "0.3",
    takeProfit: 0.002,
    stopLoss: 0.0015,
    hold: [3, 8],
  },
  {
    name: "Sable Quant",
    style: "trend",
    codes: ["SOLUSD", "XRPUSD", "ETHUSD"],
    leverage: 5,
    lots: "20",
    takeProfit: 0.003,
    stopLoss: 0.002,
    hold: [2, 6],
  },
  {
    name: "Juniper Swing",
    style: "mean_reversion",
    codes: ["BTCUSD", "DOGEUSD"],
    leverage: 20,
    lots: "0.1",
    takeProfit: 0.0015,
    stopLoss: 0.002,
    hold: [1, 4],
  },
];

/** Prices remembered per instrument: the signal looks at the last few steps. */
const HISTORY_STEPS = 5;

/** A small seeded generator (mulberry32): the same seed, the same hold times. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The side a style takes after `prices` (oldest first), or null for no trade. */
export function signal(style: Style, prices: number[]): 1 | 2 | null {
  if (prices.length < 3) return null;
  const last = prices[prices.length - 1];
  const first = prices[0];
  const earlier = prices.slice(0, -1);
  if (style === "trend") return last >= first ? ORDER_TYPE.BUY : ORDER_TYPE.SELL;
  if (style === "mean_reversion") return last >= first ? ORDER_TYPE.SELL : ORDER_TYPE.BUY;
  if (last > Math.max(...earlier)) return ORDER_TYPE.BUY;
  if (last < Math.min(...earlier)) return ORDER_TYPE.SELL;
  return null;
}

/** Take-profit and stop-loss prices of a position of `side` filled near `price`. */
export function exitLevels(
  def: Pick<StrategyDef, "takeProfit" | "stopLoss">,
  side: 1 | 2,
  price: number,
  precision: number,
): { takeProfit: number; stopLoss: number } {
  const round = (x: number) => Number(x.toFixed(precision));
  const up = side === ORDER_TYPE.BUY ? 1 : -1;
  return {
    takeProfit: round(price * (1 + up * def.takeProfit)),
    stopLoss: round(price * (1 - up * def.stopLoss)),
  };
}

/**
 * Creates a provider's account (no e-mail, phone or password: it cannot sign in), lists it in
 * strategy_traders and funds it with its starting capital by an adjustment (a ledger row, in the
 * audit log as any adjustment is), in one transaction. Returns its user id.
 */
export function fundProvider(
  db: DB,
  money: MoneyService,
  p: { name: string; style: string; capital: number },
): number {
  return money.transaction(() => {
    const now = Date.now();
    const userId = insertTraderUser(db, now);
    insertTrader(db, {
      userId,
      name: p.name,
      style: p.style,
      startCapitalMicro: p.capital,
      createdAt: now,
    });
    const memo = `Starting capital of the strategy trader ${p.name}`;
    const after = money.post({
      userId,
      amountMicro: p.capital,
      kind: "adjustment",
      memo,
      ref: `strategy:${userId}`,
    });
    writeAudit(db, {
      actor: "system",
      action: "strategy.fund",
      target: `user:${userId}`,
      userId,
      amountMicro: p.capital,
      balanceBeforeMicro: 0,
      balanceAfterMicro: after,
      remark: memo,
    });
    return userId;
  });
}

/**
 * Creates the strategy traders that are missing: an account without e-mail, phone or password (it
 * cannot sign in), listed in strategy_traders, funded with its starting capital by an adjustment.
 * Returns every trader's user id by name.
 */
export function ensureTraders(db: DB, money: MoneyService): Map<string, number> {
  const capital = usdToMicro(STRATEGY_CAPITAL_USD);
  const ids = new Map<string, number>();
  for (const def of STRATEGIES) {
    const found = traderIdByName(db, def.name);
    if (found !== undefined) {
      ids.set(def.name, found);
      continue;
    }
    ids.set(def.name, fundProvider(db, money, { name: def.name, style: def.style, capital }));
  }
  return ids;
}

export interface RunnerOptions {
  db: DB;
  money: MoneyService;
  engine: Engine;
  feed: PriceFeed;
  intervalMs: number;
  seed: number;
  log: { warn(obj: unknown, msg?: string): void; debug(obj: unknown, msg?: string): void };
}

/** Trades the strategy traders on a timer; start() after the feed runs, stop() before the engine. */
export class StrategyRunner {
  private timer: NodeJS.Timeout | null = null;
  private ids = new Map<string, number>();
  private step = 0;
  private readonly random: () => number;
  private readonly history = new Map<string, number[]>();
  /** Open position id -> the step at which it is closed. */
  private readonly closeAt = new Map<number, number>();
  private readonly specs = new Map<string, { id: number; precision: number }>();

  constructor(private readonly o: RunnerOptions) {
    this.random = rng(o.seed);
  }

  start(): void {
    if (this.timer) return;
    this.ids = ensureTraders(this.o.db, this.o.money);
    for (const r of instrumentSpecs(this.o.db))
      this.specs.set(r.code, { id: r.id, precision: r.price_precision });
    this.timer = setInterval(() => this.runStep(), this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One step: remember prices, then let each trader close or open a position. */
  runStep(): void {
    this.step++;
    for (const code of new Set(STRATEGIES.flatMap((s) => s.codes))) {
      const q = this.o.feed.quote(code);
      if (!q) continue;
      const h = this.history.get(code) ?? [];
      h.push(q.price);
      if (h.length > HISTORY_STEPS) h.shift();
      this.history.set(code, h);
    }
    for (const def of STRATEGIES) {
      const userId = this.ids.get(def.name);
      if (userId === undefined) continue;
      // A trader's orders are commands like a user's: on the leader, of its sequencer.
      this.o.engine.schedule(() => this.actOrLog(def, userId));
    }
  }

  private actOrLog(def: StrategyDef, userId: number): void {
    try {
      this.act(def, userId);
    } catch (err) {
      // A closed market or a stale quote refuses an order: the trader tries again next step.
      if (err instanceof DomainError)
        this.o.log.debug({ err, trader: def.name }, "strategy order refused");
      else this.o.log.warn({ err, trader: def.name }, "strategy step failed");
    }
  }

  private act(def: StrategyDef, userId: number): void {
    const open = this.o.engine.listOrders(userId, ORDER_TAB.HOLDING, 1).orders;
    if (open.length) {
      for (const p of open) {
        const due = this.closeAt.get(p.id) ?? this.step + this.holdSteps(def);
        this.closeAt.set(p.id, due);
        if (this.step >= due) {
          this.closeAt.delete(p.id);
          this.o.engine.close(userId, p.id);
        }
      }
      return;
    }
    const code = def.codes[this.step % def.codes.length];
    const spec = this.specs.get(code);
    const side = signal(def.style, this.history.get(code) ?? []);
    const price = this.o.feed.quote(code)?.price;
    if (!spec || side === null || !price || !this.o.feed.isOpen(code)) return;
    const levels = exitLevels(def, side, price, spec.precision);
    const order = this.o.engine.submit(userId, {
      side,
      status: ORDER_MODE.MARKET,
      instrumentId: spec.id,
      lots: dec(def.lots),
      leverage: def.leverage,
      targetPrice: null,
      takeProfit: levels.takeProfit,
      stopLoss: levels.stopLoss,
    });
    this.closeAt.set(order.id, this.step + this.holdSteps(def));
  }

  private holdSteps(def: StrategyDef): number {
    const [min, max] = def.hold;
    return min + Math.floor(this.random() * (max - min + 1));
  }
}
