/**
 * The store's money invariants, checked read-only on a database (the soak test runs them after each
 * crash and restart; an operator's ledger check runs the same code). Each breach is one finding
 * naming the user or order it concerns; an empty list means the store is consistent:
 *
 * - balance_sum: users.balance_micro equals the sum of the user's ledger rows;
 * - balance_chain: each ledger row's balance_after_micro equals the running sum up to that row;
 * - lock: users.lock_balance_micro equals the sum of the user's withdrawals under review (and so is
 *   never negative);
 * - draw: each withdrawal has exactly one withdrawal_request row (draw:ID) of minus its amount, and a
 *   rejected or cancelled one exactly one withdrawal_returned row of its amount (others none);
 * - charge: a finished deposit has exactly one deposit row (charge:ID) of the amount credited, any
 *   other deposit none;
 * - order_state: each order's columns fit its status (a pending order has no fill, an open one has
 *   a fill and margin and is not closed, a closed one has its close price, profit and time);
 * - order_fee: a filled order with a fee has exactly one fee row (order:ID) of minus that fee, and
 *   an order never filled has none; a position's fee row is charged once at its opening, so it is
 *   minus the position's fee plus the fees of the parts closed from it (partial closes split the
 *   fee), and a part has no fee row of its own;
 * - order_profit: a closed order has exactly one realised_profit row of its profit (none when the
 *   profit is zero), and an order not closed has none;
 * - ledger_ref: a ledger row referring to an order refers to an order of the same user.
 */
import { CHARGE_STATUS, WITHDRAW_STATUS } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import {
  readCheckSnapshot,
  type CheckChargeRow,
  type CheckDrawRow,
  type CheckLedgerRow,
  type CheckOrderRow,
  type CheckSnapshot,
  type CheckUserRow,
} from "./check-store.js";

const DRAW_REVIEWING = WITHDRAW_STATUS.REVIEWING;
const DRAW_REJECTED = WITHDRAW_STATUS.REJECTED;
const DRAW_CANCELLED = WITHDRAW_STATUS.CANCELLED;
const CHARGE_FINISHED = CHARGE_STATUS.FINISHED;

export type CheckName =
  | "balance_sum"
  | "balance_chain"
  | "lock"
  | "draw"
  | "charge"
  | "order_state"
  | "order_fee"
  | "order_profit"
  | "ledger_ref";

export const CHECK_NAMES: readonly CheckName[] = [
  "balance_sum",
  "balance_chain",
  "lock",
  "draw",
  "charge",
  "order_state",
  "order_fee",
  "order_profit",
  "ledger_ref",
];

export interface Finding {
  check: CheckName;
  userId?: number;
  orderId?: number;
  message: string;
}

export interface CheckReport {
  findings: Finding[];
  users: number;
  ledgerRows: number;
  orders: number;
}

type Add = (f: Finding) => void;
type OrderRows = { fee: CheckLedgerRow[]; profit: CheckLedgerRow[] };

const ST_PENDING = 0;
const ST_OPEN = 1;
const ST_CLOSED = 3;
const ST_CANCELLED = 4;

/** Runs every check in one read transaction (a consistent snapshot even while others write). */
export function checkLedger(db: DB): CheckReport {
  return db.transaction(() => run(db)).deferred();
}

function run(db: DB): CheckReport {
  const snap = readCheckSnapshot(db);
  const findings: Finding[] = [];
  const add: Add = (f) => findings.push(f);
  const byRef = rowsByRef(snap.ledger);
  const { sums, byOrder } = walkLedger(snap, add);
  const heldBy = checkDraws(snap.draws, byRef, add);
  checkCharges(snap.charges, byRef, add);
  checkUsers(snap.users, sums, heldBy, add);
  // The fee shares of the parts closed from each position (partial closes).
  const partFees = new Map<number, number>();
  for (const o of snap.orders)
    if (o.parent_id !== null)
      partFees.set(o.parent_id, (partFees.get(o.parent_id) ?? 0) + o.fee_micro);
  for (const o of snap.orders)
    checkOrder(o, byOrder.get(o.id) ?? { fee: [], profit: [] }, partFees.get(o.id) ?? 0, add);
  return {
    findings,
    users: snap.users.length,
    ledgerRows: snap.ledger.length,
    orders: snap.orders.length,
  };
}

/** Ledger rows by their ref ("draw:3", "charge:7"), for the money requests' checks. */
function rowsByRef(rows: CheckLedgerRow[]): Map<string, CheckLedgerRow[]> {
  const byRef = new Map<string, CheckLedgerRow[]>();
  for (const r of rows) {
    if (!r.ref || !/^(draw|charge):\d+$/.test(r.ref)) continue;
    const list = byRef.get(r.ref);
    if (list) list.push(r);
    else byRef.set(r.ref, [r]);
  }
  return byRef;
}

/**
 * Ledger sums and running balances per user (balance_chain); the rows of each order by kind, each
 * referring to an order of its own user (ledger_ref).
 */
function walkLedger(
  snap: CheckSnapshot,
  add: Add,
): { sums: Map<number, number>; byOrder: Map<number, OrderRows> } {
  const sums = new Map<number, number>();
  const byOrder = new Map<number, OrderRows>();
  const orderById = new Map(snap.orders.map((o) => [o.id, o]));
  for (const r of snap.ledger) {
    const sum = (sums.get(r.user_id) ?? 0) + r.amount_micro;
    sums.set(r.user_id, sum);
    if (r.balance_after_micro !== sum)
      add({
        check: "balance_chain",
        userId: r.user_id,
        message: `ledger row ${r.id}: balance after ${r.balance_after_micro}, running sum ${sum}`,
      });
    const m = r.ref ? /^order:(\d+)$/.exec(r.ref) : null;
    if (!m) continue;
    const orderId = Number(m[1]);
    const o = orderById.get(orderId);
    if (!o || o.user_id !== r.user_id) {
      add({
        check: "ledger_ref",
        userId: r.user_id,
        orderId,
        message: `ledger row ${r.id} (${r.kind}) refers to order ${orderId} ${o ? `of user ${o.user_id}` : "that does not exist"}`,
      });
      continue;
    }
    let e = byOrder.get(orderId);
    if (!e) byOrder.set(orderId, (e = { fee: [], profit: [] }));
    if (r.kind === "fee") e.fee.push(r);
    else if (r.kind === "realised_profit") e.profit.push(r);
  }
  return { sums, byOrder };
}

const rowList = (rows: CheckLedgerRow[]) =>
  rows.map((r) => `${r.kind} ${r.amount_micro}`).join(", ");

/** Each withdrawal's rows (draw); returns what each user holds under review. */
function checkDraws(
  draws: CheckDrawRow[],
  byRef: Map<string, CheckLedgerRow[]>,
  add: Add,
): Map<number, number> {
  const heldBy = new Map<number, number>();
  for (const d of draws) {
    if (d.status === DRAW_REVIEWING)
      heldBy.set(d.user_id, (heldBy.get(d.user_id) ?? 0) + d.amount_micro);
    const refRows = byRef.get(`draw:${d.id}`) ?? [];
    const requested = refRows.filter((r) => r.kind === "withdrawal_request");
    const returned = refRows.filter((r) => r.kind === "withdrawal_returned");
    const wantReturn = d.status === DRAW_REJECTED || d.status === DRAW_CANCELLED ? 1 : 0;
    if (
      requested.length !== 1 ||
      requested[0].amount_micro !== -d.amount_micro ||
      requested[0].user_id !== d.user_id ||
      returned.length !== wantReturn ||
      (wantReturn && returned[0].amount_micro !== d.amount_micro) ||
      refRows.length !== 1 + wantReturn
    )
      add({
        check: "draw",
        userId: d.user_id,
        message: `withdrawal ${d.id} (status ${d.status}, ${d.amount_micro}): rows [${rowList(refRows)}]`,
      });
  }
  return heldBy;
}

/** A finished deposit has its one deposit row of the amount credited, any other none (charge). */
function checkCharges(
  charges: CheckChargeRow[],
  byRef: Map<string, CheckLedgerRow[]>,
  add: Add,
): void {
  for (const c of charges) {
    const refRows = byRef.get(`charge:${c.id}`) ?? [];
    const finished = c.status === CHARGE_FINISHED;
    if (
      finished
        ? refRows.length !== 1 ||
          refRows[0].kind !== "deposit" ||
          refRows[0].user_id !== c.user_id ||
          refRows[0].amount_micro !== c.credited_micro
        : refRows.length !== 0
    )
      add({
        check: "charge",
        userId: c.user_id,
        message: `deposit ${c.id} (status ${c.status}, credited ${c.credited_micro}): rows [${rowList(refRows)}]`,
      });
  }
}

/** Each balance is its ledger sum (balance_sum), each lock its withdrawals under review (lock). */
function checkUsers(
  users: CheckUserRow[],
  sums: Map<number, number>,
  heldBy: Map<number, number>,
  add: Add,
): void {
  for (const u of users) {
    const sum = sums.get(u.id) ?? 0;
    if (u.balance_micro !== sum)
      add({
        check: "balance_sum",
        userId: u.id,
        message: `balance ${u.balance_micro}, ledger sum ${sum}`,
      });
    const held = heldBy.get(u.id) ?? 0;
    if (u.lock_balance_micro !== held)
      add({
        check: "lock",
        userId: u.id,
        message: `locked ${u.lock_balance_micro}, withdrawals under review ${held}`,
      });
  }
  const knownUsers = new Set(users.map((u) => u.id));
  for (const userId of sums.keys())
    if (!knownUsers.has(userId))
      add({ check: "balance_sum", userId, message: "ledger rows of a user that does not exist" });
}

/**
 * An order's columns (order_state), its fee row (order_fee: `partFeesMicro` are the fees of the
 * parts closed from it) and its profit row (order_profit).
 */
function checkOrder(o: CheckOrderRow, e: OrderRows, partFeesMicro: number, add: Add): void {
  const filled = o.open_price !== null;
  const state = stateProblem(o);
  if (state) add({ check: "order_state", userId: o.user_id, orderId: o.id, message: state });
  const charged = o.fee_micro + partFeesMicro;
  const feeWanted = filled && o.parent_id === null && charged !== 0 ? 1 : 0;
  if (e.fee.length !== feeWanted || (feeWanted && e.fee[0].amount_micro !== -charged))
    add({
      check: "order_fee",
      userId: o.user_id,
      orderId: o.id,
      message: `fee ${o.fee_micro} (${filled ? "filled" : "never filled"}), fee rows [${e.fee.map((r) => r.amount_micro).join(", ")}]`,
    });
  const profitWanted = o.status === ST_CLOSED && (o.profit_micro ?? 0) !== 0 ? 1 : 0;
  if (
    e.profit.length !== profitWanted ||
    (profitWanted && e.profit[0].amount_micro !== o.profit_micro)
  )
    add({
      check: "order_profit",
      userId: o.user_id,
      orderId: o.id,
      message: `status ${o.status}, profit ${o.profit_micro}, realised_profit rows [${e.profit.map((r) => r.amount_micro).join(", ")}]`,
    });
}

/** What is wrong with an order's columns for its status, or null. */
function stateProblem(o: CheckOrderRow): string | null {
  const filled = o.open_price !== null && o.opened_at !== null;
  const closed = o.close_price !== null || o.closed_at !== null || o.profit_micro !== null;
  if (o.margin_micro < 0 || o.fee_micro < 0)
    return `negative margin ${o.margin_micro} or fee ${o.fee_micro}`;
  switch (o.status) {
    case ST_PENDING:
      return filled || closed || o.margin_micro !== 0
        ? "pending order with a fill or a close"
        : null;
    case ST_OPEN:
      if (!filled) return "open order without a fill";
      if (closed) return "open order with a close";
      return o.margin_micro > 0 ? null : "open order without margin";
    case ST_CLOSED:
      if (!filled) return "closed order without a fill";
      return o.close_price !== null && o.closed_at !== null && o.profit_micro !== null
        ? null
        : "closed order without close price, time or profit";
    case ST_CANCELLED:
      return filled || o.closed_at === null
        ? "cancelled order with a fill or without a time"
        : null;
    default:
      return `unknown status ${o.status}`;
  }
}
