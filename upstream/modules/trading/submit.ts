/**
 * Placing an order (trading-rules.md "Orders and positions"): the request accepted against its
 * instrument, the settings and the feed, then either a pending order at its target price or a
 * market order filled at the current price with its margin and fee. One transaction each, with the
 * order cap, the free-margin check, the fee's ledger row and the idempotency key's answer.
 */
import { DomainError, CODE_FAIL } from "../../platform/errors.js";
import type { Quote } from "../market/feed.js";
import { decConst, microToNumber, type Dec } from "../money/decimal.js";
import type { Account, Pos } from "./book.js";
import type { EngineCore } from "./core.js";
import { assertAcceptedLots, assertOpenAmounts, assertPrice } from "./invariants.js";
import type { OrderRequest, OrderState } from "./model.js";
import {
  ST_OPEN,
  ST_PENDING,
  openAmounts,
  pendingKind,
  validateLeverage,
  validateLots,
  validateStops,
  type InstrumentSpec,
  type PendingKind,
} from "./orders.js";
import type { Settings } from "./settings.js";
import { stateOfPos } from "./snapshots.js";
import { countLiveOrders, insertOrder } from "./store.js";

/** A request that passed the checks common to both kinds of order. */
interface Accepted {
  userId: number;
  req: OrderRequest;
  idemKey: string | null;
  /** Runs inside the order's transaction with its answer (a caller's own row beside the order). */
  inTx: ((v: OrderState) => void) | undefined;
  inst: InstrumentSpec;
  lots: Dec;
  units: Dec;
  leverage: number;
  quote: Quote;
  rate: Dec;
  settings: Settings;
  now: number;
}

/** How an accepted order is placed: pending at its target, or open at the market price. */
interface Placement {
  status: typeof ST_PENDING | typeof ST_OPEN;
  pendingKind: PendingKind | null;
  originPrice: number;
  /** The fill price; null while pending. */
  openPrice: number | null;
  marginMicro: number;
  feeMicro: number;
}

/**
 * Places a market (status 1) or pending (status 0) order. Same idempotency key again: the first
 * result. `inTx` runs inside the order's transaction with its answer.
 */
export function submit(
  core: EngineCore,
  userId: number,
  req: OrderRequest,
  idemKey: string | null,
  inTx?: (v: OrderState) => void,
): OrderState {
  const replay = core.idem.lookup<OrderState>(userId, idemKey, "submit", req);
  if (replay) return replay;
  const o = { ...accept(core, userId, req, idemKey), inTx };
  return req.status === ST_PENDING ? placePending(core, o) : placeMarket(core, o);
}

/** Instrument, leverage, lots and a priced quote with its USD rate, refused in that order. */
function accept(
  core: EngineCore,
  userId: number,
  req: OrderRequest,
  idemKey: string | null,
): Omit<Accepted, "inTx"> {
  const inst = req.instrumentId === null ? null : core.specs.get(req.instrumentId);
  if (!inst || !inst.enabled) throw new DomainError("instrument_not_found");
  const leverage = validateLeverage(req.leverage, inst);
  const settings = core.settings();
  const lots = validateLots(req.lots, inst, settings.maxLots);
  const quote = core.liveQuote(inst);
  const rate = core.usdRate(inst);
  if (rate === null) throw new DomainError("quote_stale");
  const units = lots.mul(decConst(inst.contNum));
  assertAcceptedLots(lots, units, inst);
  return {
    userId,
    req,
    idemKey,
    inst,
    lots,
    units,
    leverage,
    quote,
    rate,
    settings,
    now: Date.now(),
  };
}

function placePending(core: EngineCore, o: Accepted): OrderState {
  const target = o.req.targetPrice;
  if (target === null) throw new DomainError("target_price_required");
  validateStops(o.req.side, target, o.req.takeProfit, o.req.stopLoss, o.inst.precision);
  const kind = pendingKind(o.req.side, target, o.quote.price);
  const a = core.account(o.userId);
  const { v, p } = core.tx.run(() => {
    checkOrderCap(core, o.userId, o.settings.maxOrders);
    const p = store(core, o, a, {
      status: ST_PENDING,
      pendingKind: kind,
      originPrice: target,
      openPrice: null,
      marginMicro: 0,
      feeMicro: 0,
    });
    return { v: answer(core, o, p), p };
  });
  core.held.enter(p);
  core.tx.emit("orderPlaced", { userId: o.userId, orderId: p.id, pending: true });
  return v;
}

function placeMarket(core: EngineCore, o: Accepted): OrderState {
  core.assertTradable(o.inst, o.quote, o.now);
  const price = o.quote.price;
  assertPrice(price, "market order");
  validateStops(o.req.side, price, o.req.takeProfit, o.req.stopLoss, o.inst.precision);
  const { marginMicro, feeMicro } = openAmounts(
    o.lots,
    o.inst,
    price,
    o.leverage,
    o.settings.feeType,
    o.rate,
  );
  assertOpenAmounts(marginMicro, feeMicro);
  const a = core.account(o.userId);
  const { v, p, balAfter } = core.tx.run(() => {
    checkOrderCap(core, o.userId, o.settings.maxOrders);
    const bal = core.balance(o.userId);
    a.balanceMicro = bal;
    checkFreeMargin(core, a, bal, marginMicro + feeMicro);
    const p = store(core, o, a, {
      status: ST_OPEN,
      pendingKind: null,
      originPrice: price,
      openPrice: price,
      marginMicro,
      feeMicro,
    });
    const balAfter = feeMicro !== 0 ? postFee(core, p, o.now) : bal;
    return { v: answer(core, o, p), p, balAfter };
  });
  a.balanceMicro = balAfter;
  core.held.enter(p);
  core.tx.emit("orderPlaced", { userId: o.userId, orderId: p.id, pending: false });
  return v;
}

/** Refuses a new order while the account holds trade.max_orders pending and open orders (in the order's transaction). */
function checkOrderCap(core: EngineCore, userId: number, max: number): void {
  if (countLiveOrders(core.db, { userId }) >= max)
    throw new DomainError("too_many_orders", CODE_FAIL, { count: max });
}

/** Refuses when free margin (exact) is below `needMicro`; the float fast path answers most calls. */
function checkFreeMargin(core: EngineCore, a: Account, balanceMicro: number, needMicro: number) {
  if (clearlyAffordable(core, a, balanceMicro, needMicro)) return;
  const free = balanceMicro + core.pricing.floatingMicro(a) - a.usedMarginMicro;
  if (needMicro > free)
    throw new DomainError("insufficient_margin", 0, {
      need: microToNumber(needMicro).toFixed(2),
      free: microToNumber(Math.max(free, 0)).toFixed(2),
    });
}

/**
 * Fast path of the free-margin check: true when free margin computed from the hot path's float
 * floating profit exceeds `needMicro` by a wide safety band (1 USD + 1% of the floating profit,
 * far above float error and cross-rate drift between ticks). Otherwise the caller decides with
 * the exact figure, so the outcome is always the exact rule's.
 */
function clearlyAffordable(
  core: EngineCore,
  a: Account,
  balanceMicro: number,
  needMicro: number,
): boolean {
  if (a.positions.size === 0) return balanceMicro >= needMicro;
  const floatingMicro = core.held.accts.float[a.idx] * 1e6;
  const slack = 1e6 + Math.abs(floatingMicro) * 0.01;
  return balanceMicro + floatingMicro - a.usedMarginMicro - slack >= needMicro;
}

/** Stores the accepted order as placed; returns it as it will be held in memory. */
function store(core: EngineCore, o: Accepted, a: Account, pl: Placement): Pos {
  const { req, inst } = o;
  const id = insertOrder(core.db, {
    userId: o.userId,
    instrumentId: inst.id,
    side: req.side,
    status: pl.status,
    pendingKind: pl.pendingKind,
    lots: o.lots.toString(),
    units: o.units.toString(),
    leverage: o.leverage,
    originPrice: pl.originPrice,
    openPrice: pl.openPrice,
    takeProfit: req.takeProfit,
    stopLoss: req.stopLoss,
    marginMicro: pl.marginMicro,
    feeMicro: pl.feeMicro,
    createdAt: o.now,
    openedAt: pl.openPrice === null ? null : o.now,
  });
  return {
    id,
    userId: o.userId,
    acc: a,
    inst,
    book: core.held.book(inst),
    orderType: req.side,
    status: pl.status,
    pendingKind: pl.pendingKind,
    lots: o.lots,
    units: o.units,
    leverage: o.leverage,
    originPrice: pl.originPrice,
    openPrice: pl.openPrice ?? 0,
    tp: req.takeProfit ?? 0,
    sl: req.stopLoss ?? 0,
    marginMicro: pl.marginMicro,
    feeMicro: pl.feeMicro,
    slot: -1,
  };
}

/** The fee's ledger row of a market order; returns the balance after. */
function postFee(core: EngineCore, p: Pos, at: number): number {
  return core.money.post({
    userId: p.userId,
    amountMicro: -p.feeMicro,
    kind: "fee",
    ref: `order:${p.id}`,
    at,
  });
}

/** The answer to the request, stored under its idempotency key (inside the order's transaction). */
function answer(core: EngineCore, o: Accepted, p: Pos): OrderState {
  const v = stateOfPos(p, o.now, core.pricing);
  core.idem.store(o.userId, o.idemKey, "submit", o.req, v);
  o.inTx?.(v);
  return v;
}
