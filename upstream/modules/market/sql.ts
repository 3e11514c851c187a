/**
 * The market module's read queries for the API (categories, instruments by id or code, sparkline
 * closes). The tables' writers keep their statements beside their rules: instruments.ts (seed),
 * candles.ts (candle book, pruning), history.ts (generated history), hours.ts (always-open setting).
 */
import type { DB } from "../../platform/db.js";

export function marketStatements(db: DB) {
  return {
    categories: db.prepare("SELECT id, names FROM categories ORDER BY sort, id"),
    categoryExists: db.prepare("SELECT 1 FROM categories WHERE id = ?"),
    instrumentById: db.prepare("SELECT * FROM instruments WHERE id = ? AND enabled = 1"),
    instrumentByCode: db.prepare(
      "SELECT * FROM instruments WHERE code = ? COLLATE NOCASE AND enabled = 1",
    ),
    closes: db.prepare(
      "SELECT time, close FROM candles WHERE instrument_id = ? AND period = ? ORDER BY time DESC LIMIT ?",
    ),
  };
}
