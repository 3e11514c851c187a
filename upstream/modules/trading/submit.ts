/**
 * Placing an order (trading-rules.md "Orders and positions"): the request accepted against its
 * instrument, the settings and the feed, then either a pending order at its target price or a
 * market order filled at the current price with its margin and fee. One transaction each, with the
 * order cap, the free-margin check, the fee's ledger row and the idempotency key's answer.
 * Many market orders of distinct users (copy trading's mirroring) are placed at once by
 * submitMarketMany: the same checks, one booking group and a few multi-row statements.
 */
import assert from "node:assert/strict";
import { DomainError, CODE_FAIL, CODE_NOT_FOUND } from "../../platform/errors.js";
import type { Quote } from "../market/feed.js";
import { decConst, microToNumber, type Dec } from "../money/decimal.js";
import { clearlyAffordable, type Account, type Pos } from "./book.js";
import type { EngineCore } from "./core.js";
import { assertOpenAmounts, assertPrice } from "./invariants.js";
import { NO_TRAIL, type OrderRequest, type OrderState, type Trail } from "./model.js";
import {
  ST_OPEN,
  ST_PENDING,
  expiryAt,
  openAmounts,
  pendingKind,
  stopsFromRequest,
  validateLeverage,
  validateLots,
  validateStops,
  validateTrail,
  type InstrumentSpec,
  type PendingKind,
} from "./orders.js";
import type { Settings } from "./settings.js";
import { stateOfPos } from "./snapshots.js";
import { insertOrder, insertOrders, type NewOrder } from "./store.js";

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
  /** Take-profit and stop-loss as prices (given in pips: converted off the fill or target price). */
  tp: number | null;
  sl: number | null;
  trail: Trail;
  /** A pending order's expiry (epoch ms); null: until cancelled. */
  expiresAt: number | null;
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

/**
 * One person's accounts (their own and their copies') never hold opposite sides of one instrument,
 * open or pending: negative balance protection is per account, so a buy in one and a sell in
 * another over a price gap would leave the person the winner and the broker the loser's debt.
 * Opposite sides within one account net there, and are allowed.
 */
function assertNoOppositeSide(
  core: EngineCore,
  userId: number,
  instId: number,
  side: number,
): void {
  for (const other of core.sameOwner(userId)) {
    // An account not held in memory has no open position or pending order.
    const a = core.held.accts.get(other);
    if (!a) continue;
    for (const set of [a.positions, a.pendings])
      for (const p of set)
        if (p.inst.id === instId && p.orderType !== side)
          throw new DomainError("opposite_side_own_account");
  }
}

/** Instrument, leverage, lots and a priced quote with its USD rate, refused in that order. */
function accept(
  core: EngineCore,
  userId: number,
  req: OrderRequest,
  idemKey: string | null,
): Omit<Accepted, "inTx"> {
  const inst = instrumentOf(core, req);
  assertNoOppositeSide(core, userId, inst.id, req.side);
  return { userId, req, idemKey, ...termsOf(core, inst, req, Date.now()) };
}

/** The order's instrument, refused when there is none or it is disabled. */
function instrumentOf(core: EngineCore, req: OrderRequest): InstrumentSpec {
  const inst = req.instrumentId === null ? null : core.specs.get(req.instrumentId);
  if (!inst || !inst.enabled) throw new DomainError("instrument_not_found");
  return inst;
}

/** What accept decides from the order's terms alone, whoever places it. */
type Terms = Omit<Accepted, "userId" | "req" | "idemKey" | "inTx">;

/** Leverage, lots and a priced quote with its USD rate of an order on `inst`, refused in that order. */
function termsOf(core: EngineCore, inst: InstrumentSpec, req: OrderRequest, now: number): Terms {
  const leverage = validateLeverage(req.leverage, inst);
  const settings = core.settings();
  // validateLots is the one check of the lots (positive, on the step, within bounds); units are
  // computed from them here, so asserting either again would repeat this line's work on every order.
  const lots = validateLots(req.lots, inst, settings.maxLots);
  const quote = core.liveQuote(inst);
  const rate = core.usdRate(inst);
  if (rate === null) throw new DomainError("quote_stale");
  const units = lots.mul(decConst(inst.contNum));
  return { inst, lots, units, leverage, quote, rate, settings, now };
}

/** Take-profit, stop-loss and trailing stop of the order off `ref` (its fill or target price), checked. */
function stopsAt(
  o: Pick<Accepted, "req" | "inst">,
  ref: number,
): Pick<Placement, "tp" | "sl" | "trail"> {
  const { tp, sl } = stopsFromRequest(o.req.side, ref, o.inst.precision, o.req);
  validateStops(o.req.side, ref, tp, sl, o.inst.precision);
  const trail = validateTrail(o.req.trail ?? NO_TRAIL, o.inst.precision, ref);
  return { tp, sl, trail };
}

function placePending(core: EngineCore, o: Accepted): OrderState {
  const target = o.req.targetPrice;
  if (target === null) throw new DomainError("target_price_required");
  const stops = stopsAt(o, target);
  const expiresAt = expiryAt(o.req.expiry, o.inst.session, o.now);
  const kind = pendingKind(o.req.side, target, o.quote.price);
  const a = core.account(o.userId);
  const { v, p } = core.tx.run(() => {
    checkOrderCap(a, o.settings.maxOrders);
    const p = store(core, o, a, {
      status: ST_PENDING,
      pendingKind: kind,
      originPrice: target,
      openPrice: null,
      marginMicro: 0,
      feeMicro: 0,
      ...stops,
      expiresAt,
    });
    return { v: answer(core, o, p), p };
  });
  core.held.enter(p);
  core.tx.emit("orderPlaced", { userId: o.userId, orderId: p.id, pending: true });
  return v;
}

function placeMarket(core: EngineCore, o: Accepted): OrderState {
  const pl = priceMarket(core, o);
  const a = core.account(o.userId);
  const { v, p, balAfter } = core.tx.run(() => {
    checkOrderCap(a, o.settings.maxOrders);
    // The leader's memory holds every balance as booked (the money service tells it each change,
    // and again after a rollback): no read of the store.
    const bal = a.balanceMicro;
    checkFreeMargin(core, a, bal, pl.marginMicro + pl.feeMicro);
    const p = store(core, o, a, pl);
    const balAfter = pl.feeMicro !== 0 ? postFee(core, p, o.now) : bal;
    return { v: answer(core, o, p), p, balAfter };
  });
  a.balanceMicro = balAfter;
  core.held.enter(p);
  core.tx.emit("orderPlaced", { userId: o.userId, orderId: p.id, pending: false });
  return v;
}

/** A market order's fill at the current price, its margin and fee (refused when not tradable now). */
function priceMarket(core: EngineCore, o: Terms & Pick<Accepted, "req">): Placement {
  core.assertTradable(o.inst, o.quote, o.now);
  const price = o.quote.price;
  assertPrice(price, "market order");
  const stops = stopsAt(o, price);
  const { marginMicro, feeMicro } = openAmounts(
    o.lots,
    o.inst,
    price,
    o.leverage,
    o.settings.feeType,
    o.rate,
  );
  assertOpenAmounts(marginMicro, feeMicro);
  return {
    status: ST_OPEN,
    pendingKind: null,
    originPrice: price,
    openPrice: price,
    marginMicro,
    feeMicro,
    ...stops,
    expiresAt: null,
  };
}

// ---------------------------------------------------------------- many market orders at once

/** One market order of a batch (submitMarketMany). */
export interface MarketItem {
  userId: number;
  req: OrderRequest;
}

/** A batch's answer for one item, in the items' order: the placed order, or why it was refused. */
export type Placed = OrderState | DomainError;

/**
 * Items a batch of market orders decides and stores at a time (submitMarketMany) on a store that
 * sends a large batch in parts (PostgreSQL inside the sequencer's batch, store/pg.ts streamPart):
 * a slice's statements are ready, and written, while the next slice is decided. Elsewhere the
 * items go as one slice: a store that writes each statement as it comes gains nothing by slices,
 * and 10,000 copies' positions stored in one run are ticked faster afterwards (bench:copy on
 * SQLite: 0.4 against 0.6 ms at p50).
 */
export const SUBMIT_SLICE = 1_000;

/** An item that passed the checks made in memory, with its placement. */
interface Priced {
  i: number;
  o: Accepted;
  pl: Placement;
}

/**
 * Places market orders of distinct users at once, each checked exactly as placeMarket checks it
 * (accepted, tradable, stops, amounts, then in the transaction the user, the order cap and free
 * margin on the balance held in memory), in one booking group: a few multi-row statements for all
 * of them (the orders, the fees' balances, the fees' ledger rows) instead of ~8 each.
 *
 * A refusal is that item's answer (a DomainError, not thrown) and writes nothing of it; anything
 * else that fails undoes the whole group, store and memory (Transactions.atomically). The items
 * are checked and stored a slice at a time (`slice`; SUBMIT_SLICE where the batch goes in parts,
 * else all at once), in order, inside the group; `inTx` runs inside it after each slice, with that
 * slice's answers and the index of its first item (once, with none, when there are no items).
 * orderPlaced is emitted per order after the commit.
 *
 * One order per user: each check reads its account as it was before the batch, which is the
 * account as placed one by one only when no other item of the batch changed it.
 */
export function submitMarketMany(
  core: EngineCore,
  items: readonly MarketItem[],
  inTx?: (placed: readonly Placed[], from: number) => void,
  slice?: number,
): Placed[] {
  const users = new Set(items.map((it) => it.userId));
  assert.equal(users.size, items.length, "submitMarketMany places one order per user");
  const out: (Placed | undefined)[] = new Array<Placed | undefined>(items.length);
  const priced: Priced[] = [];
  // One instant for the batch: its orders are decided together, on one quote.
  const now = Date.now();
  const byTerms = new Map<string, PricedTerms | DomainError>();
  items.forEach((it, i) => {
    assert.equal(it.req.status, ST_OPEN, "submitMarketMany places market orders only");
    const r = refusalOr(() => {
      const inst = instrumentOf(core, it.req);
      assertNoOppositeSide(core, it.userId, inst.id, it.req.side);
      const t = pricedTermsOf(core, inst, it.req, now, byTerms);
      const o = { userId: it.userId, req: it.req, idemKey: null, inTx: undefined, ...t.terms };
      priced.push({ i, o, pl: t.pl });
    });
    if (r) out[i] = r;
  });
  // The orders' ids in one piece, for every item that may be placed: a store that takes them ahead
  // (PostgreSQL) then reads them once for the batch, not once per slice.
  const ids = priced.length > 0 ? core.db.nextIds?.("orders", priced.length) : undefined;
  // Ids taken ahead: the batch's writes wait, and a large batch goes in parts (see SUBMIT_SLICE).
  const per = slice ?? (ids ? SUBMIT_SLICE : Math.max(1, items.length));
  assert(Number.isSafeInteger(per) && per >= 1, "a slice of one item or more");
  core.tx.atomically(() => {
    let next = 0;
    for (let from = 0; from < items.length || from === 0; from += per) {
      const to = Math.min(items.length, from + per);
      const first = next;
      while (next < priced.length && priced[next].i < to) next++;
      const fits = checkAccounts(core, priced.slice(first, next), out);
      const ps = storeMany(core, fits, ids?.slice(first, first + fits.length));
      fits.forEach((x, k) => (out[x.i] = stateOfPos(ps[k], x.o.now, core.pricing)));
      // Every item of the slice has its answer: a placed order or a refusal.
      const placed = out.slice(from, to).map((v, k) => {
        assert(v !== undefined, `item ${from + k} of submitMarketMany has no answer`);
        return v;
      });
      inTx?.(placed, from);
      for (const p of ps) {
        core.held.enter(p);
        core.tx.emit("orderPlaced", { userId: p.userId, orderId: p.id, pending: false });
      }
    }
  });
  return out as Placed[];
}

/** An order's terms as accepted and its placement at the market, or their refusal. */
interface PricedTerms {
  terms: Terms;
  pl: Placement;
}

/**
 * The terms and market placement of an order on `inst`, decided once per batch for each set of
 * terms: they depend on the terms, the quote and the instant only, never on who places the order,
 * and a provider's fill gives its copies a few distinct lot sizes among thousands of orders. The
 * placement is copied into each order's own fields (posOf, newOrderOf), so sharing it is safe.
 */
function pricedTermsOf(
  core: EngineCore,
  inst: InstrumentSpec,
  req: OrderRequest,
  now: number,
  memo: Map<string, PricedTerms | DomainError>,
): PricedTerms {
  const key = termsKey(req);
  let t = memo.get(key);
  if (t === undefined) {
    let priced: PricedTerms | undefined;
    const refused = refusalOr(() => {
      const terms = termsOf(core, inst, req, now);
      priced = { terms, pl: priceMarket(core, { req, ...terms }) };
    });
    t = refused ?? priced!;
    memo.set(key, t);
  }
  if (t instanceof DomainError) throw t;
  return t;
}

/** Every field of a market order's request that its terms and placement are decided from. */
function termsKey(req: OrderRequest): string {
  const trail = req.trail ?? NO_TRAIL;
  return [
    req.instrumentId,
    req.side,
    req.lots?.toString() ?? "",
    req.leverage,
    req.takeProfit,
    req.stopLoss,
    req.takeProfitPips ?? "",
    req.stopLossPips ?? "",
    trail.distance,
    trail.activation,
    trail.breakEven,
  ].join("|");
}

/** The DomainError fn refused with, or null when it passed (any other error is thrown on). */
export function refusalOr(fn: () => void): DomainError | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
}

/**
 * The checks placeMarket makes in its transaction, for every priced item, on the accounts in memory
 * as placeMarket makes them (those not yet held loaded by one read per ROWS_PER_STATEMENT users):
 * the user (not_found), the order cap, free margin on the balance held. Refusals go to `out`;
 * returns the items that fit, each with its account.
 */
function checkAccounts(
  core: EngineCore,
  priced: readonly Priced[],
  out: (Placed | undefined)[],
): (Priced & { a: Account })[] {
  if (priced.length === 0) return [];
  const accts = core.accounts(priced.map((x) => x.o.userId));
  const fits: (Priced & { a: Account })[] = [];
  for (const x of priced) {
    const a = accts.get(x.o.userId);
    const r = refusalOr(() => {
      if (!a) throw new DomainError("not_found", CODE_NOT_FOUND);
      checkOrderCap(a, x.o.settings.maxOrders);
      checkFreeMargin(core, a, a.balanceMicro, x.pl.marginMicro + x.pl.feeMicro);
    });
    if (r) out[x.i] = r;
    else fits.push({ ...x, a: a! });
  }
  return fits;
}

/**
 * Stores the orders that fit (one INSERT per ROWS_PER_STATEMENT; with `taken`, ids taken ahead for
 * them, in order) and books their fees through the money service (postMany); returns them as they
 * will be held in memory, in the same order.
 */
function storeMany(
  core: EngineCore,
  fits: readonly (Priced & { a: Account })[],
  taken: readonly number[] | undefined,
): Pos[] {
  if (fits.length === 0) return [];
  const ids = insertOrders(
    core.db,
    fits.map((x) => newOrderOf(x.o, x.pl)),
    taken,
  );
  // One new order per user, each read back by its user.
  assert.equal(ids.size, fits.length, "every order of the batch was stored");
  const ps = fits.map((x) => {
    const id = ids.get(x.o.userId);
    assert(id !== undefined, `no stored order for user ${x.o.userId}`);
    return posOf(core, x.o, x.a, x.pl, id);
  });
  const charged = ps.filter((p) => p.feeMicro !== 0);
  const at = new Map(fits.map((x) => [x.o.userId, x.o.now]));
  const after = core.money.postMany(
    charged.map((p) => ({
      userId: p.userId,
      amountMicro: -p.feeMicro,
      kind: "fee" as const,
      ref: `order:${p.id}`,
      at: at.get(p.userId),
      heldMicro: p.acc.balanceMicro,
    })),
  );
  charged.forEach((p, k) => (p.acc.balanceMicro = after[k]));
  return ps;
}

/**
 * Refuses a new order while the account holds trade.max_orders pending and open orders. Counted in
 * memory: the engine holds every live order of the store (loadLiveOrders) and is their one writer,
 * so the account's sets are the count the store would give, without a read on the order path.
 */
function checkOrderCap(a: Account, max: number): void {
  if (a.positions.size + a.pendings.size >= max)
    throw new DomainError("too_many_orders", CODE_FAIL, { count: max });
}

/** Refuses when free margin (exact) is below `needMicro`; the float fast path answers most calls. */
function checkFreeMargin(core: EngineCore, a: Account, balanceMicro: number, needMicro: number) {
  if (clearlyAffordable(a, core.held.accts.float[a.idx], balanceMicro, needMicro)) return;
  const free = balanceMicro + core.pricing.floatingMicro(a) - a.usedMarginMicro;
  if (needMicro > free)
    throw new DomainError("insufficient_margin", 0, {
      need: microToNumber(needMicro).toFixed(2),
      free: microToNumber(Math.max(free, 0)).toFixed(2),
    });
}

/** Stores the accepted order as placed; returns it as it will be held in memory. */
function store(core: EngineCore, o: Accepted, a: Account, pl: Placement): Pos {
  return posOf(core, o, a, pl, insertOrder(core.db, newOrderOf(o, pl)));
}

/** The orders row of an accepted order as placed. */
function newOrderOf(o: Accepted, pl: Placement): NewOrder {
  return {
    userId: o.userId,
    instrumentId: o.inst.id,
    side: o.req.side,
    status: pl.status,
    pendingKind: pl.pendingKind,
    lots: o.lots.toString(),
    units: o.units.toString(),
    leverage: o.leverage,
    originPrice: pl.originPrice,
    openPrice: pl.openPrice,
    takeProfit: pl.tp,
    stopLoss: pl.sl,
    marginMicro: pl.marginMicro,
    feeMicro: pl.feeMicro,
    createdAt: o.now,
    openedAt: pl.openPrice === null ? null : o.now,
    trailDistance: pl.trail.distance || null,
    trailActivation: pl.trail.activation || null,
    breakEven: pl.trail.breakEven || null,
    expiresAt: pl.expiresAt,
  };
}

/** The stored order `id` as it will be held in memory. */
function posOf(core: EngineCore, o: Accepted, a: Account, pl: Placement, id: number): Pos {
  const { inst } = o;
  return {
    id,
    userId: o.userId,
    acc: a,
    inst,
    book: core.held.book(inst),
    orderType: o.req.side,
    status: pl.status,
    pendingKind: pl.pendingKind,
    lots: o.lots,
    units: o.units,
    leverage: o.leverage,
    originPrice: pl.originPrice,
    openPrice: pl.openPrice ?? 0,
    tp: pl.tp ?? 0,
    sl: pl.sl ?? 0,
    marginMicro: pl.marginMicro,
    feeMicro: pl.feeMicro,
    createdAt: o.now,
    openedAt: pl.openPrice === null ? 0 : o.now,
    trail: pl.trail.distance,
    trailAct: pl.trail.activation,
    breakEven: pl.trail.breakEven,
    expiresAt: pl.expiresAt,
    slDirty: false,
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
    heldMicro: p.acc.balanceMicro,
  });
}

/** The answer to the request, stored under its idempotency key (inside the order's transaction). */
function answer(core: EngineCore, o: Accepted, p: Pos): OrderState {
  const v = stateOfPos(p, o.now, core.pricing);
  core.idem.store(o.userId, o.idemKey, "submit", o.req, v);
  o.inTx?.(v);
  return v;
}
