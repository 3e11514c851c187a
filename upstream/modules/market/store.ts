/**
 * The `categories` and `instruments` tables (migration 002): the seed's inserts (rows that exist are
 * left alone), the enabled instruments in display order, single instruments by id or code, and the
 * categories the API lists.
 */
import type { DB } from "../../platform/db.js";
import type { Session } from "./hours.js";

/** An instruments row as stored (migration 002). */
export interface InstrumentRow {
  id: number;
  code: string;
  show_code: string;
  logo: string;
  category_id: number;
  session: Session;
  quote_currency: string;
  price_precision: number;
  pip: string;
  min_lots: string;
  cont_num: string;
  margin_mode: number;
  multiples: string;
  fee_rate: string;
  base_price: number;
  volatility: number;
  api: string;
  sort: number;
  enabled: number;
}

/** A category as stored: `names` is a JSON object lang -> name. */
export interface CategoryRecord {
  id: number;
  names: string;
}

/** The columns of a seeded instrument; the others take the seed's fixed values. */
export interface NewInstrument {
  code: string;
  showCode: string;
  logo: string;
  categoryId: number;
  session: string;
  quoteCurrency: string;
  pricePrecision: number;
  contNum: string;
  /** JSON array of leverage options. */
  multiples: string;
  feeRate: string;
  basePrice: number;
  volatility: number;
  sort: number;
}

function prepare(db: DB) {
  return {
    insertCategory: db.prepare(
      "INSERT INTO categories (id, names, sort) VALUES (@id, @names, @sort) ON CONFLICT DO NOTHING",
    ),
    insertInstrument: db.prepare(
      `INSERT INTO instruments (code, show_code, logo, category_id, session, quote_currency, price_precision, pip,
         min_lots, cont_num, margin_mode, multiples, fee_rate, base_price, volatility, api, sort, enabled)
       VALUES (@code, @showCode, @logo, @categoryId, @session, @quoteCurrency, @pricePrecision, '0.01', '0.01',
         @contNum, 2, @multiples, @feeRate, @basePrice, @volatility, 'sim', @sort, 1)
       ON CONFLICT DO NOTHING`,
    ),
    enabledInstruments: db.prepare(
      `SELECT i.* FROM instruments i JOIN categories c ON c.id = i.category_id
       WHERE i.enabled = 1 ORDER BY c.sort, c.id, i.sort, i.id`,
    ),
    instrumentIds: db.prepare("SELECT id FROM instruments"),
    instrumentById: db.prepare("SELECT * FROM instruments WHERE id = @id AND enabled = 1"),
    instrumentByCode: db.prepare(
      // lower() on both sides: a code matches in any letter case on both stores (codes are ASCII).
      "SELECT * FROM instruments WHERE lower(code) = lower(@code) AND enabled = 1",
    ),
    categories: db.prepare("SELECT id, names FROM categories ORDER BY sort, id"),
    categoryExists: db.prepare("SELECT 1 FROM categories WHERE id = @id"),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** Inserts a category unless its id exists. */
export function insertCategoryIfMissing(
  db: DB,
  c: { id: number; names: string; sort: number },
): void {
  stmts(db).insertCategory.run(c);
}

/** Inserts an instrument unless its code exists; true when it inserted. */
export function insertInstrumentIfMissing(db: DB, inst: NewInstrument): boolean {
  return stmts(db).insertInstrument.run(inst).changes > 0;
}

/** Enabled instruments in display order (category order, then instrument order). */
export function enabledInstruments(db: DB): InstrumentRow[] {
  return stmts(db).enabledInstruments.all() as InstrumentRow[];
}

/** The id of every instrument, enabled or not. */
export function instrumentIds(db: DB): number[] {
  return (stmts(db).instrumentIds.all() as { id: number }[]).map((r) => r.id);
}

/** An enabled instrument by id. */
export function instrumentById(db: DB, q: { id: number }): InstrumentRow | undefined {
  return stmts(db).instrumentById.get(q) as InstrumentRow | undefined;
}

/** An enabled instrument by code, in any letter case. */
export function instrumentByCode(db: DB, q: { code: string }): InstrumentRow | undefined {
  return stmts(db).instrumentByCode.get(q) as InstrumentRow | undefined;
}

/** Every category in display order. */
export function listCategories(db: DB): CategoryRecord[] {
  return stmts(db).categories.all() as CategoryRecord[];
}

/** True when a category with this id exists. */
export function categoryExists(db: DB, q: { id: number }): boolean {
  return stmts(db).categoryExists.get(q) !== undefined;
}
