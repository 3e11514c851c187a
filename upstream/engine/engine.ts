/**
 * The order engine of the reference upstream (trading-rules.md): an in-memory book of every pending
 * order and open position, durable on every change.
 *
 * Hot path. Open positions live per instrument in typed arrays (direction, units, open price, TP,
 * SL, last profit, account slot); a tick marks to market only the instruments that ticked, with no
 * allocation per position, accumulating each account's floating profit (float, display/risk only)
 * in a Float64Array. Take-profit / stop-loss hits and reached pending orders are collected in the
 * loop and booked after it; accounts touched by the tick are then checked for stop-out.
 *
 * Durability. Every change (open, activate, close, cancel, TP/SL edit, protection, demo reset) is
 * one better-sqlite3 transaction with its ledger rows, committed before the change is applied in
 * memory and before the client gets its answer. The database runs in WAL mode with
 * synchronous=NORMAL: a commit is in the WAL file (the OS page cache) when it returns, so an
 * acknowledged order survives kill -9 of the process (not a power cut of the machine). On start the
 * engine loads every pending and open order from the database.
 *
 * Money. Booked amounts are integer micro-USD computed with decimal.js (money.ts, half-even).
 * Balances are read from users.balance_micro inside each transaction; changes made by other areas
 * (deposits, withdrawals) are picked up on every tick by reading ledger rows appended since the last
 * look, so the risk checks see them.
 */
import type { DB } from "../store/db.js";
import type { PriceFeed, Quote } from "./feed.js";
import type { Hub } from "../ws/hub.js";
import { ApiError, CODE_NOT_FOUND } from "../http/envelope.js";
import { postLedger } from "./ledger.js";
import { Dec, dec, decConst, microToNumber, round2, round6, toMicro, type Dec as DecT } from "./money.js";
import {
  BUY,
  ST_CANCELLED,
  ST_CLOSED,
  ST_OPEN,
  ST_PENDING,
  openAmounts,
  parseStop,
  pendingKind,
  pendingReached,
  profitUsd,
  validateLeverage,
  validateLots,
  validateStops,
  type CloseReason,
  type InstrumentSpec,
  type PendingKind,
} from "./orders.js";
import { isMarginCall, marginLevelPct, protectionAmount, stopOutOrder } from "./risk.js";
import { parseDecimal } from "./money.js";
import { usdRate as usdRateFloat } from "./instruments.js";

export const PAGE_SIZE = 20;
const PUSH_INTERVAL_MS = 250;
const SETTINGS_TTL_MS = 1000;

interface Logger {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
}

export interface EngineOptions {
  db: DB;
  feed: PriceFeed | null;
  hub?: Hub | null;
  log?: Logger;
  /** Interval of FOREX_TRADE pushes (at most one per user per interval). Default 250 ms. */
  pushIntervalMs?: number;
}

export interface Settings {
  feeType: number;
  maxLots: string;
  staleAfterS: number;
  marginCallPct: number;
  stopOutPct: number;
  demoInitial: string;
}

/** An open position or pending order in memory. */
interface Pos {
  id: number;
  userId: number;
  acc: Account;
  inst: InstrumentSpec;
  book: Book;
  orderType: number;
  status: number;
  pendingKind: PendingKind | null;
  lots: DecT;
  units: DecT;
  leverage: number;
  originPrice: number;
  openPrice: number;
  tp: number;
  sl: number;
  marginMicro: number;
  feeMicro: number;
  /** Index in the book's position arrays (open) or pending list (pending). */
  slot: number;
}

interface Account {
  userId: number;
  idx: number;
  balanceMicro: number;
  usedMarginMicro: number;
  positions: Set<Pos>;
  pendings: Set<Pos>;
  /** Per instrument held: sum of signed units and of signed units x open price (exact), for the exact floating profit. */
  agg: Map<number, { inst: InstrumentSpec; netUnits: DecT; netCost: DecT; count: number }>;
}

export interface SubmitInput {
  type?: unknown;
  cont?: unknown;
  forex_id?: unknown;
  status?: unknown;
  target_price?: unknown;
  stop_loss_price?: unknown;
  target_profit_price?: unknown;
  multiple?: unknown;
}

export interface OrderView {
  Id: number;
  ForexTradeLists: { ShowCode: string; Code: string; Id: number };
  OrderType: number;
  Quantity: number;
  OriginPrice: number;
  Price: number;
  UpdatePrice: number;
  FactProfits: number;
  TargetLossPrice: number;
  TargetProfitPrice: number;
  CautionMoney: number;
  TradeFee: number;
  CreateTimeHandler: string;
  Status: number;
  Multiple: number;
  PendingType: PendingKind | null;
  CloseReason: string | null;
  ClosedAt: string | null;
}

export interface AccountValues {
  balance: number;
  lock_balance: number;
  total: number;
  all_caution_money: number;
  can_use: number;
  HazardRate: number | null;
}

export interface TradePush {
  ProfitsTotal: number;
  HazardRate: number | null;
  CautionMoneyAll: number;
  Balance: number;
  Total: number;
  CanUse: number;
  MarginCall: boolean;
  TransOrder: { Id: number; UpdatePrice: number; FactProfits: number }[];
}

interface OrderRow {
  id: number;
  user_id: number;
  instrument_id: number;
  order_type: number;
  status: number;
  pending_kind: PendingKind | null;
  lots: string;
  units: string;
  leverage: number;
  origin_price: number;
  open_price: number | null;
  close_price: number | null;
  take_profit: number | null;
  stop_loss: number | null;
  margin_micro: number;
  fee_micro: number;
  profit_micro: number | null;
  close_reason: string | null;
  created_at: number;
  opened_at: number | null;
  closed_at: number | null;
}

/**
 * Per-instrument book: open positions in parallel typed arrays (account slot, signed units, open
 * price, TP, SL, last marked profit), pending orders in a list. Removal swaps the last row in.
 */
class Book {
  n = 0;
  /** Positions with a TP or SL set: the stop scan of a tick is skipped while there are none. */
  stops = 0;
  pos: Pos[] = [];
  acc = new Int32Array(64);
  /** Units, positive for a buy, negative for a sell. */
  su = new Float64Array(64);
  open = new Float64Array(64);
  tp = new Float64Array(64);
  sl = new Float64Array(64);
  profit = new Float64Array(64);
  pending: Pos[] = [];
  constructor(public inst: InstrumentSpec) {}

  private grow(): void {
    const cap = this.acc.length * 2;
    const g = <T extends Int32Array | Float64Array>(a: T, C: new (n: number) => T): T => {
      const b = new C(cap);
      b.set(a);
      return b;
    };
    this.acc = g(this.acc, Int32Array);
    this.su = g(this.su, Float64Array);
    this.open = g(this.open, Float64Array);
    this.tp = g(this.tp, Float64Array);
    this.sl = g(this.sl, Float64Array);
    this.profit = g(this.profit, Float64Array);
  }

  /**
   * Trigger bounds over the book's stops: the lowest buy TP, highest buy SL, highest sell TP and
   * lowest sell SL. A tick whose price crosses none of them cannot hit any stop, so the per-position
   * scan runs only when one may trigger. Recomputed lazily after a removal or an edit.
   */
  private buyTpMin = Infinity;
  private buySlMax = -Infinity;
  private sellTpMax = -Infinity;
  private sellSlMin = Infinity;
  private boundsStale = false;

  private widen(su: number, tp: number, sl: number): void {
    if (su > 0) {
      if (tp > 0 && tp < this.buyTpMin) this.buyTpMin = tp;
      if (sl > 0 && sl > this.buySlMax) this.buySlMax = sl;
    } else {
      if (tp > 0 && tp > this.sellTpMax) this.sellTpMax = tp;
      if (sl > 0 && sl < this.sellSlMin) this.sellSlMin = sl;
    }
  }

  /** True when `p` may trigger a stop of this book (then scan it). */
  mayHitStops(p: number): boolean {
    if (this.stops === 0) return false;
    if (this.boundsStale) {
      this.buyTpMin = this.sellSlMin = Infinity;
      this.buySlMax = this.sellTpMax = -Infinity;
      for (let i = 0; i < this.n; i++) this.widen(this.su[i], this.tp[i], this.sl[i]);
      this.boundsStale = false;
    }
    return p >= this.buyTpMin || p <= this.buySlMax || p <= this.sellTpMax || p >= this.sellSlMin;
  }

  add(p: Pos, profit: number): void {
    if (this.n === this.acc.length) this.grow();
    const i = this.n++;
    this.pos[i] = p;
    this.acc[i] = p.acc.idx;
    this.su[i] = p.orderType === BUY ? p.units.toNumber() : -p.units.toNumber();
    this.open[i] = p.openPrice;
    this.tp[i] = p.tp;
    this.sl[i] = p.sl;
    this.profit[i] = profit;
    if (p.tp > 0 || p.sl > 0) {
      this.stops++;
      this.widen(this.su[i], p.tp, p.sl);
    }
    p.slot = i;
  }

  setStops(p: Pos, tp: number, sl: number): void {
    const had = this.tp[p.slot] > 0 || this.sl[p.slot] > 0;
    this.tp[p.slot] = tp;
    this.sl[p.slot] = sl;
    this.stops += (tp > 0 || sl > 0 ? 1 : 0) - (had ? 1 : 0);
    this.boundsStale = true;
  }

  remove(p: Pos): void {
    const i = p.slot;
    if (this.tp[i] > 0 || this.sl[i] > 0) {
      this.stops--;
      this.boundsStale = true;
    }
    const last = --this.n;
    if (i !== last) {
      const q = this.pos[last];
      this.pos[i] = q;
      this.acc[i] = this.acc[last];
      this.su[i] = this.su[last];
      this.open[i] = this.open[last];
      this.tp[i] = this.tp[last];
      this.sl[i] = this.sl[last];
      this.profit[i] = this.profit[last];
      q.slot = i;
    }
    this.pos.length = this.n;
    p.slot = -1;
  }

  addPending(p: Pos): void {
    p.slot = this.pending.length;
    this.pending.push(p);
  }

  removePending(p: Pos): void {
    const i = p.slot;
    const last = this.pending.pop()!;
    if (last !== p) {
      this.pending[i] = last;
      last.slot = i;
    }
    p.slot = -1;
  }
}

function fmtTime(ms: number | null): string {
  if (!ms) return "";
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

function intParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{1,12}$/.test(s)) return null;
  return Number(s);
}

function priceParam(raw: unknown): number | null {
  const s = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!/^\d{0,15}(\.\d{1,12})?$/.test(s) || s === "" || s === ".") return null;
  const v = Number(s);
  return Number.isFinite(v) && v > 0 ? v : null;
}

const ONE = new Dec(1);

export class Engine {
  readonly db: DB;
  private feed: PriceFeed | null = null;
  private unsubscribeFeed: (() => void) | null = null;
  private hub: Hub | null;
  private log: Logger;

  private instruments = new Map<number, InstrumentSpec>();
  private books = new Map<number, Book>();
  private accounts = new Map<number, Account>();
  private accountList: Account[] = [];
  private orders = new Map<number, Pos>();

  /** Per account slot: floating profit (float USD) of the hot path, touched and dirty flags. */
  private accFloat = new Float64Array(256);
  private touched = new Uint8Array(256);
  private touchedList = new Int32Array(256);
  private touchedN = 0;
  private dirty = new Uint8Array(256);

  private lastLedgerId = 0;
  private settingsCache: Settings | null = null;
  private settingsAt = 0;
  private pushTimer: NodeJS.Timeout | null = null;

  private st: ReturnType<Engine["prepare"]>;

  constructor(opts: EngineOptions) {
    this.db = opts.db;
    this.hub = opts.hub ?? null;
    this.log = opts.log ?? { error: (o, m) => console.error(m, o), warn: (o, m) => console.warn(m, o) };
    this.st = this.prepare();
    this.lastLedgerId = (this.db.prepare("SELECT COALESCE(MAX(id), 0) AS m FROM ledger").get() as { m: number }).m;
    this.loadOpenOrders();
    this.setFeed(opts.feed);
    if (this.hub) {
      const hub = this.hub;
      hub.onSubscribe(
        (t) => t === "FOREX_TRADE",
        (_t, conn) => (conn.userId === null ? undefined : this.tradePush(conn.userId)),
      );
      this.pushTimer = setInterval(() => this.flushPushes(), opts.pushIntervalMs ?? PUSH_INTERVAL_MS);
      this.pushTimer.unref();
    }
  }

  /** One reusable better-sqlite3 transaction wrapper: runTx(fn) runs fn in BEGIN ... COMMIT (ROLLBACK on throw). */
  private txRunner: ((fn: () => unknown) => unknown) | null = null;
  private runTx<T>(fn: () => T): T {
    if (!this.txRunner) this.txRunner = this.db.transaction((f: () => unknown) => f());
    return this.txRunner(fn) as T;
  }

  private prepare() {
    const db = this.db;
    return {
      setting: db.prepare("SELECT key, value FROM settings WHERE key IN ('trade_fee_type','trade.max_lots','market.stale_after_s','risk.margin_call_pct','risk.stop_out_pct','demo.initial_balance')"),
      user: db.prepare("SELECT id, is_demo, balance_micro, lock_balance_micro FROM users WHERE id = ?"),
      balance: db.prepare("SELECT balance_micro FROM users WHERE id = ?"),
      instrument: db.prepare("SELECT id, code, show_code, quote_currency, price_precision, pip, min_lots, cont_num, margin_mode, multiples, fee_rate, enabled FROM instruments WHERE id = ?"),
      insertOrder: db.prepare(
        `INSERT INTO orders (user_id, instrument_id, order_type, status, pending_kind, lots, units, leverage, origin_price, open_price,
           take_profit, stop_loss, margin_micro, fee_micro, created_at, opened_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
      activate: db.prepare("UPDATE orders SET status = 1, open_price = ?, margin_micro = ?, fee_micro = ?, opened_at = ? WHERE id = ? AND status = 0"),
      closeOrder: db.prepare("UPDATE orders SET status = 3, close_price = ?, profit_micro = ?, close_reason = ?, closed_at = ? WHERE id = ? AND status = 1"),
      cancelOrder: db.prepare("UPDATE orders SET status = 4, close_reason = ?, closed_at = ? WHERE id = ? AND status = 0"),
      setStops: db.prepare("UPDATE orders SET take_profit = ?, stop_loss = ? WHERE id = ? AND status IN (0, 1)"),
      orderById: db.prepare("SELECT * FROM orders WHERE id = ?"),
      liveOrders: db.prepare("SELECT * FROM orders WHERE status IN (0, 1) ORDER BY id"),
      newLedger: db.prepare("SELECT id, user_id, balance_after_micro FROM ledger WHERE id > ? ORDER BY id"),
      idemGet: db.prepare("SELECT route, response FROM idempotency WHERE user_id = ? AND key = ?"),
      idemPut: db.prepare("INSERT INTO idempotency (user_id, key, route, response, created_at) VALUES (?, ?, ?, ?, ?)"),
      listOrders: db.prepare(
        "SELECT o.*, i.code, i.show_code FROM orders o JOIN instruments i ON i.id = o.instrument_id WHERE o.user_id = ? AND o.status = ? ORDER BY o.id DESC LIMIT ? OFFSET ?",
      ),
      listHistory: db.prepare(
        "SELECT o.*, i.code, i.show_code FROM orders o JOIN instruments i ON i.id = o.instrument_id WHERE o.user_id = ? AND o.status IN (3, 4) ORDER BY COALESCE(o.closed_at, o.created_at) DESC, o.id DESC LIMIT ? OFFSET ?",
      ),
      countOrders: db.prepare("SELECT COUNT(*) AS n FROM orders WHERE user_id = ? AND status = ?"),
      countHistory: db.prepare("SELECT COUNT(*) AS n, COALESCE(SUM(profit_micro), 0) AS p FROM orders WHERE user_id = ? AND status IN (3, 4)"),
    };
  }

  // ---------------------------------------------------------------- settings, instruments, prices

  settings(): Settings {
    const now = Date.now();
    if (this.settingsCache && now - this.settingsAt < SETTINGS_TTL_MS) return this.settingsCache;
    const m = new Map((this.st.setting.all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    const num = (k: string, d: number) => {
      const v = Number(m.get(k));
      return Number.isFinite(v) ? v : d;
    };
    const maxLots = parseDecimal(m.get("trade.max_lots") ?? "100") ?? new Dec(100);
    const demo = parseDecimal(m.get("demo.initial_balance") ?? "10000", 6) ?? new Dec(10000);
    this.settingsCache = {
      feeType: num("trade_fee_type", 2),
      maxLots: maxLots.toString(),
      staleAfterS: num("market.stale_after_s", 30),
      marginCallPct: num("risk.margin_call_pct", 100),
      stopOutPct: num("risk.stop_out_pct", 50),
      demoInitial: demo.toString(),
    };
    this.settingsAt = now;
    return this.settingsCache;
  }

  /** Forgets cached settings and instruments (after an operator changed them). */
  reloadSettings(): void {
    this.settingsCache = null;
    for (const id of [...this.instruments.keys()]) {
      const fresh = this.readInstrument(id);
      if (fresh) Object.assign(this.instruments.get(id)!, fresh);
    }
  }

  private readInstrument(id: number): InstrumentSpec | null {
    const r = this.st.instrument.get(id) as
      | { id: number; code: string; show_code: string; quote_currency: string; price_precision: number; pip: string; min_lots: string; cont_num: string; margin_mode: number; multiples: string; fee_rate: string; enabled: number }
      | undefined;
    if (!r) return null;
    let multiples: number[] = [];
    try {
      const parsed = JSON.parse(r.multiples) as unknown;
      if (Array.isArray(parsed)) multiples = parsed.map((x) => Number(typeof x === "object" && x !== null ? (x as { Value?: unknown }).Value : x)).filter((x) => Number.isInteger(x) && x > 0);
    } catch {
      multiples = [];
    }
    return {
      id: r.id,
      code: r.code,
      showCode: r.show_code,
      quoteCurrency: (r.quote_currency || "USD").toUpperCase(),
      precision: Number(r.price_precision) || 0,
      pip: String(r.pip),
      minLots: String(r.min_lots),
      contNum: String(r.cont_num),
      marginMode: Number(r.margin_mode),
      multiples,
      feeRate: String(r.fee_rate),
      enabled: r.enabled === 1,
    };
  }

  private instrument(id: number): InstrumentSpec | null {
    let i = this.instruments.get(id);
    if (!i) {
      const r = this.readInstrument(id);
      if (!r) return null;
      this.instruments.set(id, r);
      i = r;
    }
    return i;
  }

  private book(inst: InstrumentSpec): Book {
    let b = this.books.get(inst.id);
    if (!b) this.books.set(inst.id, (b = new Book(inst)));
    return b;
  }

  /** The latest price of an instrument, or null when the feed has none. */
  private price(inst: InstrumentSpec): number | null {
    const q = this.feed?.quote(inst.id);
    return q && q.price > 0 ? q.price : null;
  }

  /**
   * USD per unit of the instrument's quote currency, exact: the rule of instruments.ts usdRate (a
   * CCYUSD quote's price, or 1 / a USDCCY quote's price) in decimals; null when unknown (refused).
   */
  usdRate(inst: InstrumentSpec): DecT | null {
    const ccy = inst.quoteCurrency;
    if (ccy === "USD") return ONE;
    const direct = this.feed?.quote(`${ccy}USD`);
    if (direct && direct.price > 0) return dec(direct.price);
    const inverse = this.feed?.quote(`USD${ccy}`);
    if (inverse && inverse.price > 0) return ONE.div(dec(inverse.price));
    return null;
  }

  /** Float twin of usdRate (instruments.ts usdRate) for the hot path; NaN when unknown. */
  private usdRateF(inst: InstrumentSpec): number {
    if (inst.quoteCurrency === "USD") return 1;
    return (this.feed && usdRateFloat(this.feed, inst.quoteCurrency)) || NaN;
  }

  /** Attaches the price source (replacing any previous one): the engine follows its ticks. */
  setFeed(feed: PriceFeed | null): void {
    if (feed === this.feed) return;
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    this.feed = feed;
    if (feed) {
      this.unsubscribeFeed = feed.onTick((changed) => {
        try {
          this.onTick(changed);
        } catch (err) {
          this.log.error({ err }, "engine tick failed");
        }
      });
    }
  }

  stop(): void {
    this.unsubscribeFeed?.();
    this.unsubscribeFeed = null;
    if (this.pushTimer) clearInterval(this.pushTimer);
    this.pushTimer = null;
  }

  // ---------------------------------------------------------------- accounts

  private account(userId: number): Account {
    let a = this.accounts.get(userId);
    if (a) return a;
    const r = this.st.balance.get(userId) as { balance_micro: number } | undefined;
    if (!r) throw new ApiError("not_found", CODE_NOT_FOUND);
    const idx = this.accountList.length;
    if (idx >= this.accFloat.length) {
      const cap = this.accFloat.length * 2;
      const f = new Float64Array(cap);
      f.set(this.accFloat);
      this.accFloat = f;
      const t = new Uint8Array(cap);
      t.set(this.touched);
      this.touched = t;
      const tl = new Int32Array(cap);
      tl.set(this.touchedList);
      this.touchedList = tl;
      const d = new Uint8Array(cap);
      d.set(this.dirty);
      this.dirty = d;
    }
    a = { userId, idx, balanceMicro: r.balance_micro, usedMarginMicro: 0, positions: new Set(), pendings: new Set(), agg: new Map() };
    this.accounts.set(userId, a);
    this.accountList.push(a);
    return a;
  }

  /** Exact floating profit of one position at the current price, micro-USD (0 when no price). */
  private floatingMicroOf(p: Pos): number {
    const price = this.price(p.inst);
    if (price === null) return 0;
    const rate = this.usdRate(p.inst);
    if (rate === null) return 0;
    return toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
  }

  /**
   * Exact floating profit of an account, micro-USD: per instrument held, (price x net units - net cost)
   * x USD rate, summed exactly and rounded once. O(instruments held), not O(positions).
   */
  private floatingMicro(a: Account): number {
    if (a.positions.size === 0) return 0;
    let sum = new Dec(0);
    for (const g of a.agg.values()) {
      const price = this.price(g.inst);
      const rate = this.usdRate(g.inst);
      if (price === null || rate === null) continue;
      sum = sum.plus(g.netUnits.mul(dec(price)).minus(g.netCost).mul(rate));
    }
    return toMicro(sum);
  }

  /**
   * Fast path of the free-margin check: true when free margin computed from the hot path's float
   * floating profit exceeds `needMicro` by a wide safety band (1 USD + 1% of the floating profit,
   * far above float error and cross-rate drift between ticks). Otherwise the caller decides with
   * the exact figure, so the outcome is always the exact rule's.
   */
  private clearlyAffordable(a: Account, balanceMicro: number, needMicro: number): boolean {
    if (a.positions.size === 0) return balanceMicro >= needMicro;
    const floatingMicro = this.accFloat[a.idx] * 1e6;
    const slack = 1e6 + Math.abs(floatingMicro) * 0.01;
    return balanceMicro + floatingMicro - a.usedMarginMicro - slack >= needMicro;
  }

  private aggAdd(p: Pos, sign: 1 | -1): void {
    const signed = p.orderType === BUY ? p.units : p.units.neg();
    const du = sign === 1 ? signed : signed.neg();
    const dc = du.mul(dec(p.openPrice));
    const g = p.acc.agg.get(p.inst.id);
    if (!g) {
      p.acc.agg.set(p.inst.id, { inst: p.inst, netUnits: du, netCost: dc, count: 1 });
      return;
    }
    g.count += sign;
    if (g.count === 0) p.acc.agg.delete(p.inst.id);
    else {
      g.netUnits = g.netUnits.plus(du);
      g.netCost = g.netCost.plus(dc);
    }
  }

  /** Recomputes an account's float accumulator from its positions' last marked profits (no drift). */
  private refloat(a: Account): void {
    let s = 0;
    for (const p of a.positions) s += p.book.profit[p.slot];
    this.accFloat[a.idx] = s;
    this.dirty[a.idx] = 1;
  }

  /** Reads ledger rows appended since the last look (by any area) and refreshes loaded balances. */
  private syncBalances(): void {
    const rows = this.st.newLedger.all(this.lastLedgerId) as { id: number; user_id: number; balance_after_micro: number }[];
    for (const r of rows) {
      this.lastLedgerId = r.id;
      const a = this.accounts.get(r.user_id);
      if (a) {
        a.balanceMicro = r.balance_after_micro;
        this.dirty[a.idx] = 1;
      }
    }
  }

  /** Balance, lock, equity, used and free margin, margin level: exact (micro-USD) and for display. */
  accountValues(userId: number): AccountValues & { marginCall: boolean; floatingMicro: number; balanceMicro: number; usedMarginMicro: number } {
    const u = this.st.user.get(userId) as { balance_micro: number; lock_balance_micro: number } | undefined;
    if (!u) throw new ApiError("not_found", CODE_NOT_FOUND);
    const a = this.accounts.get(userId);
    const used = a ? a.usedMarginMicro : 0;
    const floating = a ? this.floatingMicro(a) : 0;
    const total = u.balance_micro + floating;
    const level = marginLevelPct(total, used);
    return {
      balance: microToNumber(u.balance_micro),
      lock_balance: microToNumber(u.lock_balance_micro),
      total: microToNumber(total),
      all_caution_money: microToNumber(used),
      can_use: microToNumber(total - used),
      HazardRate: level === null ? null : round2(level),
      marginCall: isMarginCall(level, this.settings().marginCallPct),
      floatingMicro: floating,
      balanceMicro: u.balance_micro,
      usedMarginMicro: used,
    };
  }

  /** The FOREX_TRADE push of a user. */
  tradePush(userId: number): TradePush {
    const v = this.accountValues(userId);
    const a = this.accounts.get(userId);
    const trans: TradePush["TransOrder"] = [];
    if (a) {
      for (const p of a.positions) {
        trans.push({ Id: p.id, UpdatePrice: this.price(p.inst) ?? p.openPrice, FactProfits: microToNumber(this.floatingMicroOf(p)) });
      }
      trans.sort((x, y) => y.Id - x.Id);
    }
    return {
      ProfitsTotal: microToNumber(v.floatingMicro),
      HazardRate: v.HazardRate,
      CautionMoneyAll: v.all_caution_money,
      Balance: v.balance,
      Total: v.total,
      CanUse: v.can_use,
      MarginCall: v.marginCall,
      TransOrder: trans,
    };
  }

  private flushPushes(): void {
    if (!this.hub) return;
    const users = this.hub.subscribedUsers("FOREX_TRADE");
    if (users.length === 0) return;
    try {
      this.syncBalances(); // deposits and withdrawals show even while no instrument ticks
    } catch (err) {
      this.log.error({ err }, "ledger sync failed");
      return;
    }
    for (const userId of users) {
      const a = this.accounts.get(userId);
      if (!a || !this.dirty[a.idx]) continue;
      this.dirty[a.idx] = 0;
      try {
        this.hub.publishToUser(userId, "FOREX_TRADE", this.tradePush(userId));
      } catch (err) {
        this.log.error({ err }, "FOREX_TRADE push failed");
      }
    }
  }

  private publishClosed(userId: number, ids: number[]): void {
    if (ids.length && this.hub) this.hub.publishToUser(userId, "FOREX_CLOSED", { ids });
  }

  // ---------------------------------------------------------------- loading

  private loadOpenOrders(): void {
    for (const r of this.st.liveOrders.all() as OrderRow[]) {
      const inst = this.instrument(r.instrument_id);
      if (!inst) {
        this.log.warn({ order: r.id }, "order of an unknown instrument left out of the book");
        continue;
      }
      const a = this.account(r.user_id);
      const p = this.posFromRow(r, inst, a);
      if (p.status === ST_OPEN) this.addOpen(p);
      else this.addPending(p);
    }
  }

  private posFromRow(r: OrderRow, inst: InstrumentSpec, a: Account): Pos {
    return {
      id: r.id,
      userId: r.user_id,
      acc: a,
      inst,
      book: this.book(inst),
      orderType: r.order_type,
      status: r.status,
      pendingKind: r.pending_kind,
      lots: dec(r.lots),
      units: dec(r.units),
      leverage: r.leverage,
      originPrice: r.origin_price,
      openPrice: r.open_price ?? 0,
      tp: r.take_profit ?? 0,
      sl: r.stop_loss ?? 0,
      marginMicro: r.margin_micro,
      feeMicro: r.fee_micro,
      slot: -1,
    };
  }

  private addOpen(p: Pos): void {
    p.status = ST_OPEN;
    const price = this.price(p.inst);
    const rate = this.usdRateF(p.inst);
    const profit = price === null || !Number.isFinite(rate) ? 0 : (p.orderType === BUY ? price - p.openPrice : p.openPrice - price) * p.units.toNumber() * rate;
    p.book.add(p, profit);
    p.acc.positions.add(p);
    p.acc.usedMarginMicro += p.marginMicro;
    this.aggAdd(p, 1);
    this.orders.set(p.id, p);
    this.refloat(p.acc);
  }

  private removeOpen(p: Pos): void {
    p.book.remove(p);
    p.acc.positions.delete(p);
    p.acc.usedMarginMicro -= p.marginMicro;
    this.aggAdd(p, -1);
    this.orders.delete(p.id);
    this.refloat(p.acc);
  }

  private addPending(p: Pos): void {
    p.book.addPending(p);
    p.acc.pendings.add(p);
    this.orders.set(p.id, p);
    this.dirty[p.acc.idx] = 1;
  }

  private removePending(p: Pos): void {
    p.book.removePending(p);
    p.acc.pendings.delete(p);
    this.orders.delete(p.id);
    this.dirty[p.acc.idx] = 1;
  }

  // ---------------------------------------------------------------- idempotency

  private idemLookup<T>(userId: number, key: string | null, route: string): T | undefined {
    if (!key) return undefined;
    const r = this.st.idemGet.get(userId, key) as { route: string; response: string } | undefined;
    if (!r) return undefined;
    if (r.route !== route) throw new ApiError("idempotency_conflict");
    return JSON.parse(r.response) as T;
  }

  private idemStore(userId: number, key: string | null, route: string, data: unknown): void {
    if (key) this.st.idemPut.run(userId, key, route, JSON.stringify(data), Date.now());
  }

  // ---------------------------------------------------------------- commands

  /** Places a market (status 1) or pending (status 0) order. Same idempotency key again: the first result. */
  submit(userId: number, input: SubmitInput, idemKey: string | null = null): OrderView {
    const replay = this.idemLookup<OrderView>(userId, idemKey, "submit");
    if (replay) return replay;

    const orderType = intParam(input.type);
    if (orderType !== 1 && orderType !== 2) throw new ApiError("trade_invalid_field", 0, { field: "type" });
    const status = input.status === undefined || input.status === "" ? ST_OPEN : intParam(input.status);
    if (status !== ST_OPEN && status !== ST_PENDING) throw new ApiError("trade_invalid_field", 0, { field: "status" });
    const instId = intParam(input.forex_id);
    const inst = instId === null ? null : this.instrument(instId);
    if (!inst || !inst.enabled) throw new ApiError("instrument_not_found");
    const leverage = validateLeverage(input.multiple, inst);
    const s = this.settings();
    const lots = validateLots(parseDecimal(input.cont), inst, s.maxLots);
    const tp = parseStop(input.target_profit_price, "target_profit_price");
    const sl = parseStop(input.stop_loss_price, "stop_loss_price");

    const q = this.feed?.quote(inst.id);
    if (!q || !(q.price > 0)) throw new ApiError("quote_stale");
    const rate = this.usdRate(inst);
    if (rate === null) throw new ApiError("quote_stale");
    const units = lots.mul(decConst(inst.contNum));
    const now = Date.now();

    if (status === ST_PENDING) {
      const target = priceParam(input.target_price);
      if (target === null) throw new ApiError("target_price_required");
      validateStops(orderType, target, tp, sl, inst.precision);
      const kind = pendingKind(orderType, target, q.price);
      const a = this.account(userId);
      const view = this.runTx(() => {
        const { id } = this.st.insertOrder.get(userId, inst.id, orderType, ST_PENDING, kind, lots.toString(), units.toString(), leverage, target, null, tp, sl, 0, 0, now, null) as { id: number };
        const p: Pos = {
          id, userId, acc: a, inst, book: this.book(inst), orderType, status: ST_PENDING, pendingKind: kind, lots, units, leverage,
          originPrice: target, openPrice: 0, tp: tp ?? 0, sl: sl ?? 0, marginMicro: 0, feeMicro: 0, slot: -1,
        };
        const v = this.viewOfPos(p, now);
        this.idemStore(userId, idemKey, "submit", v);
        return { v, p };
      });
      this.addPending(view.p);
      return view.v;
    }

    if (!this.feed!.isOpen(inst.id)) throw new ApiError("market_closed");
    if (now - q.time > s.staleAfterS * 1000) throw new ApiError("quote_stale");
    const price = q.price;
    validateStops(orderType, price, tp, sl, inst.precision);
    const { marginMicro, feeMicro } = openAmounts(lots, inst, price, leverage, s.feeType, rate);
    const a = this.account(userId);
    const res = this.runTx(() => {
      const bal = (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      a.balanceMicro = bal;
      if (!this.clearlyAffordable(a, bal, marginMicro + feeMicro)) {
        const free = bal + this.floatingMicro(a) - a.usedMarginMicro;
        if (marginMicro + feeMicro > free) {
          throw new ApiError("insufficient_margin", 0, { need: microToNumber(marginMicro + feeMicro).toFixed(2), free: microToNumber(Math.max(free, 0)).toFixed(2) });
        }
      }
      const { id } = this.st.insertOrder.get(userId, inst.id, orderType, ST_OPEN, null, lots.toString(), units.toString(), leverage, price, price, tp, sl, marginMicro, feeMicro, now, now) as { id: number };
      const balAfter = feeMicro !== 0 ? postLedger(this.db, { userId, amountMicro: -feeMicro, kind: "fee", ref: `order:${id}`, at: now }) : bal;
      const p: Pos = {
        id, userId, acc: a, inst, book: this.book(inst), orderType, status: ST_OPEN, pendingKind: null, lots, units, leverage,
        originPrice: price, openPrice: price, tp: tp ?? 0, sl: sl ?? 0, marginMicro, feeMicro, slot: -1,
      };
      const v = this.viewOfPos(p, now);
      this.idemStore(userId, idemKey, "submit", v);
      return { v, p, balAfter };
    });
    a.balanceMicro = res.balAfter;
    this.addOpen(res.p);
    return res.v;
  }

  /** Closes an open position of the user at the current price. */
  close(userId: number, id: unknown, idemKey: string | null = null): OrderView {
    const replay = this.idemLookup<OrderView>(userId, idemKey, "close");
    if (replay) return replay;
    const p = this.ownOrder(userId, id);
    if (p.status !== ST_OPEN) throw new ApiError("order_not_open");
    const q = this.feed?.quote(p.inst.id);
    if (!q || !(q.price > 0)) throw new ApiError("quote_stale");
    if (!this.feed!.isOpen(p.inst.id)) throw new ApiError("market_closed");
    if (Date.now() - q.time > this.settings().staleAfterS * 1000) throw new ApiError("quote_stale");
    const v = this.closePosition(p, q.price, "manual", (view) => this.idemStore(userId, idemKey, "close", view));
    return v;
  }

  /** Cancels a pending order of the user. */
  cancel(userId: number, id: unknown, idemKey: string | null = null): OrderView {
    const replay = this.idemLookup<OrderView>(userId, idemKey, "cancel_trade");
    if (replay) return replay;
    const p = this.ownOrder(userId, id);
    if (p.status !== ST_PENDING) throw new ApiError("order_not_pending");
    return this.cancelPending(p, "cancelled", (view) => this.idemStore(userId, idemKey, "cancel_trade", view));
  }

  /** Sets or clears (0 / empty) take-profit and stop-loss of an open position or pending order. */
  setStops(userId: number, id: unknown, tpRaw: unknown, slRaw: unknown): OrderView {
    const p = this.ownOrder(userId, id);
    const tp = parseStop(tpRaw, "target_profit_price");
    const sl = parseStop(slRaw, "stop_loss_price");
    let ref = p.originPrice;
    if (p.status === ST_OPEN) {
      const price = this.price(p.inst);
      if (price === null) throw new ApiError("quote_stale");
      ref = price;
    }
    validateStops(p.orderType, ref, tp, sl, p.inst.precision);
    this.runTx(() => {
      this.st.setStops.run(tp, sl, p.id);
    });
    p.tp = tp ?? 0;
    p.sl = sl ?? 0;
    if (p.status === ST_OPEN) p.book.setStops(p, p.tp, p.sl);
    this.dirty[p.acc.idx] = 1;
    return this.viewOfPos(p, this.createdAt(p.id));
  }

  /** Demo accounts only: closes every position, cancels pending orders, restores demo.initial_balance. */
  resetDemo(userId: number): AccountValues {
    const u = this.st.user.get(userId) as { is_demo: number } | undefined;
    if (!u) throw new ApiError("not_found", CODE_NOT_FOUND);
    if (u.is_demo !== 1) throw new ApiError("only_demo");
    const a = this.account(userId);
    const initial = toMicro(dec(this.settings().demoInitial));
    const now = Date.now();
    const open = [...a.positions];
    const pend = [...a.pendings];
    this.runTx(() => {
      for (const p of open) {
        const price = this.price(p.inst) ?? p.openPrice;
        const rate = this.usdRate(p.inst) ?? ONE;
        const profit = toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
        this.st.closeOrder.run(price, profit, "demo_reset", now, p.id);
        if (profit !== 0) postLedger(this.db, { userId, amountMicro: profit, kind: "realised_profit", ref: `order:${p.id}`, at: now });
      }
      for (const p of pend) this.st.cancelOrder.run("demo_reset", now, p.id);
      const bal = (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      if (bal !== initial) postLedger(this.db, { userId, amountMicro: initial - bal, kind: "demo_reset", ref: "demo_reset", at: now });
    });
    for (const p of open) this.removeOpen(p);
    for (const p of pend) this.removePending(p);
    a.balanceMicro = initial;
    this.dirty[a.idx] = 1;
    this.publishClosed(userId, open.map((p) => p.id));
    const v = this.accountValues(userId);
    return { balance: v.balance, lock_balance: v.lock_balance, total: v.total, all_caution_money: v.all_caution_money, can_use: v.can_use, HazardRate: v.HazardRate };
  }

  // ---------------------------------------------------------------- booking primitives

  private ownOrder(userId: number, rawId: unknown): Pos {
    const id = intParam(rawId);
    const p = id === null ? undefined : this.orders.get(id);
    if (p && p.userId === userId) return p;
    if (id !== null) {
      const r = this.st.orderById.get(id) as OrderRow | undefined;
      if (r && r.user_id === userId) {
        throw new ApiError(r.status === ST_PENDING ? "order_not_pending" : "order_not_open");
      }
    }
    throw new ApiError("order_not_found", CODE_NOT_FOUND);
  }

  /**
   * Closes an open position at `price` in one transaction: the order row, its realised profit ledger
   * row, and negative balance protection when it was the account's last position.
   */
  private closePosition(p: Pos, price: number, reason: CloseReason, inTx?: (v: OrderView) => void): OrderView {
    const rate = this.usdRate(p.inst) ?? ONE;
    const profit = toMicro(profitUsd(p.orderType, p.openPrice, price, p.units, rate));
    const now = Date.now();
    const userId = p.userId;
    const a = p.acc;
    const view = this.runTx(() => {
      const changed = this.st.closeOrder.run(price, profit, reason, now, p.id).changes;
      if (changed !== 1) throw new ApiError("order_not_open");
      let bal = profit !== 0 ? postLedger(this.db, { userId, amountMicro: profit, kind: "realised_profit", ref: `order:${p.id}`, at: now }) : (this.st.balance.get(userId) as { balance_micro: number }).balance_micro;
      const prot = protectionAmount(bal, a.positions.size - 1);
      if (prot !== 0) bal = postLedger(this.db, { userId, amountMicro: prot, kind: "protection", ref: `order:${p.id}`, at: now });
      a.balanceMicro = bal;
      const v = this.viewClosed(p, price, profit, reason, now);
      inTx?.(v);
      return v;
    });
    this.removeOpen(p);
    this.publishClosed(userId, [p.id]);
    return view;
  }

  private cancelPending(p: Pos, reason: CloseReason, inTx?: (v: OrderView) => void): OrderView {
    const now = Date.now();
    const view = this.runTx(() => {
      const changed = this.st.cancelOrder.run(reason, now, p.id).changes;
      if (changed !== 1) throw new ApiError("order_not_pending");
      const v: OrderView = { ...this.viewOfPos(p, this.createdAt(p.id)), Status: ST_CANCELLED, CloseReason: reason, ClosedAt: fmtTime(now) };
      inTx?.(v);
      return v;
    });
    this.removePending(p);
    return view;
  }

  /** Activates a reached pending order at the tick's price, or cancels it when free margin is too small. */
  private activate(p: Pos, price: number): void {
    if (this.feed && !this.feed.isOpen(p.inst.id)) return;
    const rate = this.usdRate(p.inst);
    if (rate === null) return;
    const s = this.settings();
    const { marginMicro, feeMicro } = openAmounts(p.lots, p.inst, price, p.leverage, s.feeType, rate);
    const a = p.acc;
    const now = Date.now();
    const ok = this.runTx(() => {
      const bal = (this.st.balance.get(p.userId) as { balance_micro: number }).balance_micro;
      a.balanceMicro = bal;
      const free = bal + this.floatingMicro(a) - a.usedMarginMicro;
      if (marginMicro + feeMicro > free) {
        this.st.cancelOrder.run("insufficient_margin", now, p.id);
        return false;
      }
      this.st.activate.run(price, marginMicro, feeMicro, now, p.id);
      if (feeMicro !== 0) a.balanceMicro = postLedger(this.db, { userId: p.userId, amountMicro: -feeMicro, kind: "fee", ref: `order:${p.id}`, at: now });
      return true;
    });
    this.removePending(p);
    if (ok) {
      p.openPrice = price;
      p.marginMicro = marginMicro;
      p.feeMicro = feeMicro;
      this.addOpen(p);
    }
  }

  /** Stop-out of one account: closes the largest loser first, re-checking, at current prices. */
  private stopOut(a: Account, stopOutPct: number): void {
    const list = [...a.positions].map((p) => ({ p, id: p.id, profit: this.floatingMicroOf(p), margin: p.marginMicro }));
    const bal = (this.st.balance.get(a.userId) as { balance_micro: number }).balance_micro;
    const ids = stopOutOrder(bal, list, stopOutPct);
    for (const id of ids) {
      const p = this.orders.get(id);
      if (!p || p.status !== ST_OPEN) continue;
      const price = this.price(p.inst) ?? p.openPrice;
      this.closePosition(p, price, "stop_out");
    }
  }

  // ---------------------------------------------------------------- the tick

  private hitPos: Pos[] = [];
  private hitPrice: number[] = [];
  private hitReason: CloseReason[] = [];
  private actPos: Pos[] = [];
  private actPrice: number[] = [];

  /** Marks to market the instruments that ticked, then books TP/SL, pending activations and stop-outs. */
  onTick(changed: Quote[]): void {
    this.syncBalances();
    const accFloat = this.accFloat;
    const touched = this.touched;
    const touchedList = this.touchedList;
    let tn = this.touchedN;
    for (let k = 0; k < changed.length; k++) {
      const q = changed[k];
      const book = this.books.get(q.id);
      if (!book) continue;
      const p = q.price;
      if (!(p > 0)) continue;
      const n = book.n;
      if (n > 0) {
        const rate = this.usdRateF(book.inst);
        if (Number.isFinite(rate)) {
          tn = this.mark(book, p, rate, tn);
          if (book.mayHitStops(p)) this.scanStops(book, p);
        }
      }
      const pend = book.pending;
      for (let i = 0; i < pend.length; i++) {
        const po = pend[i];
        if (pendingReached(po.pendingKind!, po.originPrice, p)) {
          this.actPos.push(po);
          this.actPrice.push(p);
        }
      }
    }
    this.touchedN = tn;

    // Take-profit and stop-loss at the tick's price.
    for (let i = 0; i < this.hitPos.length; i++) {
      const pos = this.hitPos[i];
      if (pos.status !== ST_OPEN || pos.slot < 0) continue;
      try {
        this.closePosition(pos, this.hitPrice[i], this.hitReason[i]);
        this.markTouched(pos.acc);
      } catch (err) {
        this.log.error({ err, order: pos.id }, "TP/SL close failed");
      }
    }
    this.hitPos.length = 0;
    this.hitPrice.length = 0;
    this.hitReason.length = 0;

    // Pending orders reached: activated at the tick's price.
    for (let i = 0; i < this.actPos.length; i++) {
      const pos = this.actPos[i];
      if (pos.status !== ST_PENDING || pos.slot < 0) continue;
      try {
        this.activate(pos, this.actPrice[i]);
        this.markTouched(pos.acc);
      } catch (err) {
        this.log.error({ err, order: pos.id }, "pending activation failed");
      }
    }
    this.actPos.length = 0;
    this.actPrice.length = 0;

    // Stop-out check of every account the tick touched.
    const s = this.settings();
    const stopOut = s.stopOutPct;
    for (let k = 0; k < this.touchedN; k++) {
      const ai = touchedList[k];
      touched[ai] = 0;
      const a = this.accountList[ai];
      const used = a.usedMarginMicro;
      if (used <= 0) continue;
      const level = ((a.balanceMicro / 1e6 + accFloat[ai]) / (used / 1e6)) * 100;
      // The float level decides whether to look; the exact figures decide what to close.
      if (level <= stopOut + 1e-6) {
        try {
          this.stopOut(a, stopOut);
        } catch (err) {
          this.log.error({ err, user: a.userId }, "stop-out failed");
        }
      }
    }
    this.touchedN = 0;
  }

  /**
   * The hot loop: marks every position of one book at price `p`, moving each account's float
   * accumulator by the change and listing the accounts touched. No allocation.
   */
  private mark(book: Book, p: number, rate: number, tn: number): number {
    const acc = book.acc, su = book.su, open = book.open, profit = book.profit, n = book.n;
    const accFloat = this.accFloat, touched = this.touched, touchedList = this.touchedList, dirty = this.dirty;
    for (let i = 0; i < n; i++) {
      const pr = (p - open[i]) * su[i] * rate;
      const ai = acc[i];
      accFloat[ai] += pr - profit[i];
      profit[i] = pr;
      if (touched[ai] === 0) {
        touched[ai] = 1;
        touchedList[tn++] = ai;
        dirty[ai] = 1;
      }
    }
    return tn;
  }

  /** Collects the positions of a book whose take-profit or stop-loss `p` reaches. */
  private scanStops(book: Book, p: number): void {
    const su = book.su, tp = book.tp, sl = book.sl, n = book.n;
    for (let i = 0; i < n; i++) {
      const t = tp[i];
      const s = sl[i];
      if (t === 0 && s === 0) continue;
      const reason = su[i] > 0 ? (t > 0 && p >= t ? "take_profit" : s > 0 && p <= s ? "stop_loss" : null) : t > 0 && p <= t ? "take_profit" : s > 0 && p >= s ? "stop_loss" : null;
      if (reason !== null) {
        this.hitPos.push(book.pos[i]);
        this.hitPrice.push(p);
        this.hitReason.push(reason);
      }
    }
  }

  private markTouched(a: Account): void {
    if (this.touched[a.idx] === 0) {
      this.touched[a.idx] = 1;
      this.touchedList[this.touchedN++] = a.idx;
    }
    this.dirty[a.idx] = 1;
  }

  // ---------------------------------------------------------------- views

  private createdAt(id: number): number {
    const r = this.st.orderById.get(id) as OrderRow | undefined;
    return r?.created_at ?? Date.now();
  }

  private viewOfPos(p: Pos, createdAt: number): OrderView {
    const cur = this.price(p.inst);
    const open = p.status === ST_OPEN;
    return {
      Id: p.id,
      ForexTradeLists: { ShowCode: p.inst.showCode, Code: p.inst.code, Id: p.inst.id },
      OrderType: p.orderType,
      Quantity: p.lots.toNumber(),
      OriginPrice: p.originPrice,
      Price: open ? p.openPrice : 0,
      UpdatePrice: cur ?? (open ? p.openPrice : p.originPrice),
      FactProfits: open && cur !== null && cur !== p.openPrice ? microToNumber(this.floatingMicroOf(p)) : 0,
      TargetLossPrice: p.sl,
      TargetProfitPrice: p.tp,
      CautionMoney: microToNumber(p.marginMicro),
      TradeFee: microToNumber(p.feeMicro),
      CreateTimeHandler: fmtTime(createdAt),
      Status: p.status,
      Multiple: p.leverage,
      PendingType: p.pendingKind,
      CloseReason: null,
      ClosedAt: null,
    };
  }

  private viewClosed(p: Pos, price: number, profit: number, reason: string, at: number): OrderView {
    return {
      ...this.viewOfPos(p, this.createdAt(p.id)),
      Status: ST_CLOSED,
      UpdatePrice: price,
      FactProfits: microToNumber(profit),
      CloseReason: reason,
      ClosedAt: fmtTime(at),
    };
  }

  private viewOfRow(r: OrderRow & { code: string; show_code: string }): OrderView {
    const live = this.orders.get(r.id);
    if (live && (r.status === ST_OPEN || r.status === ST_PENDING)) return this.viewOfPos(live, r.created_at);
    return {
      Id: r.id,
      ForexTradeLists: { ShowCode: r.show_code, Code: r.code, Id: r.instrument_id },
      OrderType: r.order_type,
      Quantity: Number(r.lots),
      OriginPrice: r.origin_price,
      Price: r.open_price ?? 0,
      UpdatePrice: r.close_price ?? r.open_price ?? r.origin_price,
      FactProfits: microToNumber(r.profit_micro ?? 0),
      TargetLossPrice: r.stop_loss ?? 0,
      TargetProfitPrice: r.take_profit ?? 0,
      CautionMoney: microToNumber(r.margin_micro),
      TradeFee: microToNumber(r.fee_micro),
      CreateTimeHandler: fmtTime(r.created_at),
      Status: r.status,
      Multiple: r.leverage,
      PendingType: r.pending_kind,
      CloseReason: r.close_reason,
      ClosedAt: r.closed_at ? fmtTime(r.closed_at) : null,
    };
  }

  /** my_deal: status 0 pending, 1 holding, 3 history (closed and cancelled); PAGE_SIZE per page, newest first. */
  listOrders(userId: number, statusRaw: unknown, pageRaw: unknown): { data: OrderView[]; total: number; all_fact_profits: number; balance: number } {
    const status = statusRaw === undefined || statusRaw === "" ? ST_OPEN : intParam(statusRaw);
    if (status !== 0 && status !== 1 && status !== 3) throw new ApiError("trade_invalid_field", 0, { field: "status" });
    const pageN = pageRaw === undefined || pageRaw === "" ? 1 : intParam(pageRaw);
    if (pageN === null || pageN < 1 || pageN > 1_000_000) throw new ApiError("trade_invalid_field", 0, { field: "page" });
    const offset = (pageN - 1) * PAGE_SIZE;
    const u = this.st.balance.get(userId) as { balance_micro: number } | undefined;
    if (!u) throw new ApiError("not_found", CODE_NOT_FOUND);
    let rows: (OrderRow & { code: string; show_code: string })[];
    let total: number;
    let allProfitMicro = 0;
    if (status === 3) {
      rows = this.st.listHistory.all(userId, PAGE_SIZE, offset) as typeof rows;
      const c = this.st.countHistory.get(userId) as { n: number; p: number };
      total = c.n;
      allProfitMicro = c.p;
    } else {
      rows = this.st.listOrders.all(userId, status, PAGE_SIZE, offset) as typeof rows;
      total = (this.st.countOrders.get(userId, status) as { n: number }).n;
      if (status === 1) {
        const a = this.accounts.get(userId);
        allProfitMicro = a ? this.floatingMicro(a) : 0;
      }
    }
    return { data: rows.map((r) => this.viewOfRow(r)), total, all_fact_profits: microToNumber(allProfitMicro), balance: microToNumber(u.balance_micro) };
  }

  // ---------------------------------------------------------------- introspection (tests, bench)

  /** Number of open positions and pending orders held in memory. */
  stats(): { open: number; pending: number; accounts: number } {
    let open = 0;
    let pending = 0;
    for (const b of this.books.values()) {
      open += b.n;
      pending += b.pending.length;
    }
    return { open, pending, accounts: this.accountList.length };
  }

  /** Float floating profit of an account from the hot path (display only). */
  hotFloating(userId: number): number {
    const a = this.accounts.get(userId);
    return a ? round6(this.accFloat[a.idx]) : 0;
  }
}

export function createEngine(opts: EngineOptions): Engine {
  return new Engine(opts);
}
