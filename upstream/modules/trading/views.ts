/**
 * Orders as the API shows them (OrderView, the spec's my_deal item) built from an order in memory or
 * a stored row, and the paging of my_deal (status 0 pending, 1 holding, 3 history).
 */
import type { DB } from "../../platform/db.js";
import { DomainError } from "../../platform/errors.js";
import { microToNumber } from "../money/decimal.js";
import { ST_CLOSED, ST_OPEN, type PendingKind } from "./orders.js";
import { fmtTime, intParam } from "./params.js";
import type { Pos } from "./book.js";
import type { Pricing } from "./pricing.js";

export const PAGE_SIZE = 20;

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

/** A row of the orders table. */
export interface OrderRow {
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

/** An order row with its instrument's codes, as my_deal reads it. */
export type ListedOrderRow = OrderRow & { code: string; show_code: string };

/** The view of an order in memory (open or pending) at the current price. */
export function viewOfPos(p: Pos, createdAt: number, pricing: Pricing): OrderView {
  const cur = pricing.price(p.inst);
  const open = p.status === ST_OPEN;
  return {
    Id: p.id,
    ForexTradeLists: { ShowCode: p.inst.showCode, Code: p.inst.code, Id: p.inst.id },
    OrderType: p.orderType,
    Quantity: p.lots.toNumber(),
    OriginPrice: p.originPrice,
    Price: open ? p.openPrice : 0,
    UpdatePrice: cur ?? (open ? p.openPrice : p.originPrice),
    FactProfits: open && cur !== null && cur !== p.openPrice ? microToNumber(pricing.floatingMicroOf(p)) : 0,
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

/** The view of a position just closed at `price` with realised profit `profit` (micro-USD). */
export function viewClosed(p: Pos, createdAt: number, pricing: Pricing, price: number, profit: number, reason: string, at: number): OrderView {
  return {
    ...viewOfPos(p, createdAt, pricing),
    Status: ST_CLOSED,
    UpdatePrice: price,
    FactProfits: microToNumber(profit),
    CloseReason: reason,
    ClosedAt: fmtTime(at),
  };
}

/** The view of a stored order (closed, cancelled, or live but not held in memory). */
export function viewOfRow(r: ListedOrderRow): OrderView {
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

/** my_deal's status (default 1) and page (default 1): refused with trade_invalid_field when malformed. */
export function parseDealQuery(statusRaw: unknown, pageRaw: unknown): { status: 0 | 1 | 3; offset: number } {
  const status = statusRaw === undefined || statusRaw === "" ? ST_OPEN : intParam(statusRaw);
  if (status !== 0 && status !== 1 && status !== 3) throw new DomainError("trade_invalid_field", 0, { field: "status" });
  const pageN = pageRaw === undefined || pageRaw === "" ? 1 : intParam(pageRaw);
  if (pageN === null || pageN < 1 || pageN > 1_000_000) throw new DomainError("trade_invalid_field", 0, { field: "page" });
  return { status, offset: (pageN - 1) * PAGE_SIZE };
}

/** The stored side of my_deal: one page of a user's orders, newest first, and their count. */
export class DealPages {
  private readonly st: ReturnType<typeof dealStatements>;

  constructor(db: DB) {
    this.st = dealStatements(db);
  }

  /**
   * PAGE_SIZE rows from `offset` of the user's orders of `status` (3: closed and cancelled), their
   * total count, and for history the realised profit of all of them (micro-USD; 0 otherwise).
   */
  page(userId: number, status: 0 | 1 | 3, offset: number): { rows: ListedOrderRow[]; total: number; historyProfitMicro: number } {
    if (status === 3) {
      const rows = this.st.listHistory.all(userId, PAGE_SIZE, offset) as ListedOrderRow[];
      const c = this.st.countHistory.get(userId) as { n: number; p: number };
      return { rows, total: c.n, historyProfitMicro: c.p };
    }
    const rows = this.st.listOrders.all(userId, status, PAGE_SIZE, offset) as ListedOrderRow[];
    const total = (this.st.countOrders.get(userId, status) as { n: number }).n;
    return { rows, total, historyProfitMicro: 0 };
  }
}

function dealStatements(db: DB) {
  return {
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
