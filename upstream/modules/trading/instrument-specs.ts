/** The instruments as the engine trades them (InstrumentSpec), read from the store and cached. */
import type { DB } from "../../platform/db.js";
import type { InstrumentSpec } from "./orders.js";
import { readInstrumentSpec } from "./store.js";

export class InstrumentSpecs {
  private readonly byId = new Map<number, InstrumentSpec>();

  constructor(private readonly db: DB) {}

  /** The instrument (read once, then cached), or null when there is none with this id. */
  get(id: number): InstrumentSpec | null {
    let i = this.byId.get(id);
    if (!i) {
      const r = this.read(id);
      if (!r) return null;
      this.byId.set(id, r);
      i = r;
    }
    return i;
  }

  /** Re-reads every cached instrument in place (positions keep their reference). */
  reload(): void {
    for (const id of [...this.byId.keys()]) {
      const fresh = this.read(id);
      if (fresh) Object.assign(this.byId.get(id)!, fresh);
    }
  }

  private read(id: number): InstrumentSpec | null {
    const r = readInstrumentSpec(this.db, { id });
    if (!r) return null;
    let multiples: number[] = [];
    try {
      const parsed = JSON.parse(r.multiples) as unknown;
      if (Array.isArray(parsed))
        multiples = parsed
          .map((x) =>
            Number(typeof x === "object" && x !== null ? (x as { Value?: unknown }).Value : x),
          )
          .filter((x) => Number.isInteger(x) && x > 0);
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
      session: r.session,
    };
  }
}
