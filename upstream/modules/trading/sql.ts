/** The trading module's SQL: the orders table as the engine writes it, and the pages of my_deal. */
import { ORDER_TAB, type OrderTab } from "@contract/enums";
import { PAGE_SIZE } from "@contract/constants";
import type { DB } from "../../platform/db.js";
import type { CloseReason, PendingKind } from "./orders.js";

export { PAGE_SIZE };

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
  close_reason: CloseReason | null;
  created_at: number;
  opened_at: number | null;
  closed_at: number | null;
}

/** An order row with its instrument's codes, as my_deal reads it. */
export type ListedOrderRow = OrderRow & { code: string; show_code: string };

export function engineStatements(db: DB) {
  return {
    user: db.prepare(
      "SELECT id, is_demo, balance_micro, lock_balance_micro FROM users WHERE id = ?",
    ),
    balance: db.prepare("SELECT balance_micro FROM users WHERE id = ?"),
    liveOrderCount: db.prepare(
      "SELECT COUNT(*) AS n FROM orders WHERE user_id = ? AND status IN (0, 1)",
    ),
    insertOrder: db.prepare(
      `INSERT INTO orders (user_id, instrument_id, order_type, status, pending_kind, lots, units, leverage, origin_price, open_price,
         take_profit, stop_loss, margin_micro, fee_micro, created_at, opened_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    activate: db.prepare(
      "UPDATE orders SET status = 1, open_price = ?, margin_micro = ?, fee_micro = ?, opened_at = ? WHERE id = ? AND status = 0",
    ),
    closeOrder: db.prepare(
      "UPDATE orders SET status = 3, close_price = ?, profit_micro = ?, close_reason = ?, closed_at = ? WHERE id = ? AND status = 1",
    ),
    cancelOrder: db.prepare(
      "UPDATE orders SET status = 4, close_reason = ?, closed_at = ? WHERE id = ? AND status = 0",
    ),
    setStops: db.prepare(
      "UPDATE orders SET take_profit = ?, stop_loss = ? WHERE id = ? AND status IN (0, 1)",
    ),
    orderById: db.prepare("SELECT * FROM orders WHERE id = ?"),
    liveOrders: db.prepare("SELECT * FROM orders WHERE status IN (0, 1) ORDER BY id"),
  };
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
  page(
    userId: number,
    status: OrderTab,
    offset: number,
  ): { rows: ListedOrderRow[]; total: number; historyProfitMicro: number } {
    if (status === ORDER_TAB.HISTORY) {
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
    countHistory: db.prepare(
      "SELECT COUNT(*) AS n, COALESCE(SUM(profit_micro), 0) AS p FROM orders WHERE user_id = ? AND status IN (3, 4)",
    ),
  };
}
