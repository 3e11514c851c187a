/**
 * The trading API's wire shapes (@contract/api/trading, @contract/ws): the order (my_deal item),
 * forexDetail's account figures, my_deal's page and the FOREX_TRADE push, each mapped from the
 * engine's domain values (model.ts). Amounts are shown in USD (micro-USD / 1e6).
 */
import { microToNumber, round2 } from "../money/decimal.js";
import { instrumentName, type Lang } from "../../platform/i18n.js";
import type { ForexDetail, Order, OrderPage } from "@contract/api/trading";
import type { ForexTradePush } from "@contract/ws";
import type {
  AccountFigures,
  AccountSnapshot,
  OrderPage as DomainOrderPage,
  OrderState,
} from "./model.js";
import { wireTime } from "../../platform/wire.js";

/** The wire shapes, as the contract defines them. */
export type OrderView = Order;
export type AccountValues = ForexDetail;
export type DealPageView = OrderPage;
export type TradePush = ForexTradePush;

/** "YYYY-MM-DD HH:MM:SS" (UTC) of epoch milliseconds; "" for none. */
export const fmtTime = wireTime;

/** An order as the API sends it; with `lang`, its instrument named in that language. */
export function orderView(o: OrderState, lang?: Lang): OrderView {
  return {
    Id: o.id,
    ForexTradeLists: {
      ShowCode: lang
        ? instrumentName(lang, o.instrument.code, o.instrument.showCode)
        : o.instrument.showCode,
      Code: o.instrument.code,
      Id: o.instrument.id,
    },
    OrderType: o.side,
    Quantity: Number(o.lots),
    OriginPrice: o.originPrice,
    Price: o.openPrice,
    UpdatePrice: o.currentPrice,
    FactProfits: microToNumber(o.profitMicro),
    TargetLossPrice: o.stopLoss,
    TargetProfitPrice: o.takeProfit,
    CautionMoney: microToNumber(o.marginMicro),
    TradeFee: microToNumber(o.feeMicro),
    CreateTimeHandler: fmtTime(o.createdAt),
    Status: o.status,
    Multiple: o.leverage,
    PendingType: o.pendingKind,
    CloseReason: o.closeReason,
    ClosedAt: o.closedAt ? fmtTime(o.closedAt) : null,
    TrailingDistance: o.trail.distance,
    TrailingActivation: o.trail.activation,
    BreakEven: o.trail.breakEven,
    ExpiresAt: o.expiresAt === null ? null : fmtTime(o.expiresAt),
    ParentId: o.parentId,
  };
}

export function accountView(f: AccountFigures): AccountValues {
  return {
    balance: microToNumber(f.balanceMicro),
    lock_balance: microToNumber(f.lockMicro),
    total: microToNumber(f.equityMicro),
    all_caution_money: microToNumber(f.usedMarginMicro),
    can_use: microToNumber(f.freeMarginMicro),
    HazardRate: f.marginLevelPct === null ? null : round2(f.marginLevelPct),
  };
}

export function dealPageView(p: DomainOrderPage, lang?: Lang): DealPageView {
  return {
    data: p.orders.map((o) => orderView(o, lang)),
    total: p.total,
    all_fact_profits: microToNumber(p.profitMicro),
    balance: microToNumber(p.balanceMicro),
  };
}

/** The FOREX_TRADE push of an account; open positions newest first. */
export function tradePushView(s: AccountSnapshot): TradePush {
  const v = accountView(s.figures);
  return {
    ProfitsTotal: microToNumber(s.figures.floatingMicro),
    HazardRate: v.HazardRate,
    CautionMoneyAll: v.all_caution_money,
    Balance: v.balance,
    Total: v.total,
    CanUse: v.can_use,
    MarginCall: s.figures.marginCall,
    TransOrder: s.positions
      .map((p) => ({
        Id: p.id,
        UpdatePrice: p.price,
        FactProfits: microToNumber(p.profitMicro),
        TargetLossPrice: p.stopLoss,
      }))
      .sort((x, y) => y.Id - x.Id),
  };
}
