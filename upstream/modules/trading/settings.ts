/** The operator settings the engine trades by, read from the settings table and cached for a second. */
import { DEFAULT_FEE_TYPE } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { Dec, parseDecimal } from "../money/decimal.js";
import { readTradeSettings } from "./store.js";

const SETTINGS_TTL_MS = 1000;

export interface Settings {
  feeType: number;
  maxLots: string;
  staleAfterS: number;
  marginCallPct: number;
  stopOutPct: number;
  demoInitial: string;
  /** Most pending and open orders an account may hold at once. */
  maxOrders: number;
}

export class TradeSettings {
  private cache: Settings | null = null;
  private at = 0;

  constructor(private readonly db: DB) {}

  /** The settings, at most SETTINGS_TTL_MS old; defaults for missing or malformed values. */
  get(): Settings {
    const now = Date.now();
    if (this.cache && now - this.at < SETTINGS_TTL_MS) return this.cache;
    const m = readTradeSettings(this.db);
    const num = (k: string, d: number) => {
      const v = Number(m.get(k));
      return Number.isFinite(v) ? v : d;
    };
    const maxLots = parseDecimal(m.get("trade.max_lots") ?? "100") ?? new Dec(100);
    const demo = parseDecimal(m.get("demo.initial_balance") ?? "10000", 6) ?? new Dec(10000);
    const maxOrders = num("trade.max_orders", 200);
    this.cache = {
      feeType: num("trade_fee_type", DEFAULT_FEE_TYPE),
      maxLots: maxLots.toString(),
      staleAfterS: num("market.stale_after_s", 30),
      marginCallPct: num("risk.margin_call_pct", 100),
      stopOutPct: num("risk.stop_out_pct", 50),
      demoInitial: demo.toString(),
      maxOrders: Number.isInteger(maxOrders) && maxOrders > 0 ? maxOrders : 200,
    };
    this.at = now;
    return this.cache;
  }

  /** Forgets the cached settings (after an operator changed them). */
  forget(): void {
    this.cache = null;
  }
}
