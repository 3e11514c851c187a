/**
 * The money catalogue's SQL: the rows of `charge_channels`, `wire_accounts` and `draw_currencies`.
 * A catalogue names its table and columns (catalog.ts); they are never taken from a request.
 */
import type { DB } from "../../platform/db.js";

export type CatalogValue = string | number;
export type CatalogRow = Record<string, CatalogValue>;

export function catalogRowById(db: DB, p: { table: string; id: number }): CatalogRow | undefined {
  return db.prepare(`SELECT * FROM ${p.table} WHERE id = ?`).get(p.id) as CatalogRow | undefined;
}

/** Every row of the table, in the order shown (sort, then id). */
export function catalogRows(db: DB, p: { table: string }): CatalogRow[] {
  return db.prepare(`SELECT * FROM ${p.table} ORDER BY sort, id`).all() as CatalogRow[];
}

/** Inserts `row` (each key a column); its id. */
export function insertCatalogRow(db: DB, p: { table: string; row: CatalogRow }): number {
  const cols = Object.keys(p.row);
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO ${p.table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    )
    .run(...cols.map((c) => p.row[c]));
  return Number(lastInsertRowid);
}

/** Writes `row`'s values of `columns` to row `id`. */
export function updateCatalogRow(
  db: DB,
  p: { table: string; id: number; columns: string[]; row: CatalogRow },
): void {
  db.prepare(
    `UPDATE ${p.table} SET ${p.columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`,
  ).run(...p.columns.map((c) => p.row[c]), p.id);
}

/** A write refused by a UNIQUE index (the entry would duplicate another). */
export { isUniqueViolation } from "../../platform/db.js";
