/**
 * The operator settings the engine trades by, read from the settings table and held in memory.
 * They are read again once they are a second old, without holding the event loop (a read
 * connection on PostgreSQL): the settings held answer meanwhile. A synchronous read inside a
 * sequencer's batch made that batch answer on the store's connection, and so wait for its whole
 * write and commit on the event loop, once a second on a busy leader. A change through the
 * operator API forgets them (Engine.reloadSettings): the next order reads them at once. A change
 * made around the API (the operator's command line, SQL) is seen within a second and one read.
 */
import { DEFAULT_FEE_TYPE } from "@contract/enums";
import type { DB } from "../../platform/db.js";
import { Dec, parseDecimal } from "../money/decimal.js";
import { readTradeSettings, readTradeSettingsLater } from "./store.js";

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
  /** Counted up by forget(): a read begun before it does not put back what it read. */
  private generation = 0;
  private reading = false;

  constructor(private readonly db: DB) {}

  /**
   * The settings held (defaults for missing or malformed values), read at once when none are; once
   * they are SETTINGS_TTL_MS old, read again in the background for the calls after this one.
   */
  get(): Settings {
    if (this.cache === null) return this.keep(readTradeSettings(this.db), Date.now());
    if (Date.now() - this.at >= SETTINGS_TTL_MS) this.readAgain();
    return this.cache;
  }

  /** Forgets the settings held (after an operator changed them): the next get() reads them. */
  forget(): void {
    this.cache = null;
    this.generation++;
  }

  private readAgain(): void {
    if (this.reading) return;
    this.reading = true;
    const generation = this.generation;
    const at = Date.now();
    readTradeSettingsLater(this.db)
      .then(
        (m) => {
          if (generation === this.generation) this.keep(m, at);
        },
        // The settings held stay (a store closing, a connection lost): the next get() tries again.
        () => undefined,
      )
      .finally(() => (this.reading = false));
  }

  private keep(m: Map<string, string>, at: number): Settings {
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
    this.at = at;
    return this.cache;
  }
}
