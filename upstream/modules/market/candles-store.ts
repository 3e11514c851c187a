/**
 * The `candles` table (migration 002): one row per instrument, period and candle start (`time`, ms
 * UTC). Writers: the candle book's flush (upsert), first-start history (insert when missing) and
 * retention (pruning); readers: the latest candle a book continues from, the kline and sparkline
 * reads, and whether an instrument has any history.
 */
import type { Period } from "@contract/constants";
import { SqlArray, type DB } from "../../platform/db.js";
import { chunked, prepareOnce, tuples } from "../../platform/store/multi-row.js";

export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** One stored candle of an instrument and period. */
export interface CandleRecord extends Candle {
  instrumentId: number;
  period: Period;
}

/** Rows written by one statement of insertCandlesIfMissing (8 values each). */
const CANDLES_PER_INSERT = 250;

/** A multi-row insert of `rows` candles (candleValues each), then `onConflict`. */
function candlesSql(rows: number, onConflict: string): string {
  return `INSERT INTO candles (instrument_id, period, time, open, high, low, close, volume)
    VALUES ${tuples(rows, "(?, ?, ?, ?, ?, ?, ?, ?)")} ${onConflict}`;
}

const insertCandlesSql = (rows: number) => candlesSql(rows, "ON CONFLICT DO NOTHING");

/** A candle's values in the order of candlesSql's columns. */
const candleValues = (instrumentId: number, period: Period, c: Candle) => [
  instrumentId,
  period,
  c.time,
  c.open,
  c.high,
  c.low,
  c.close,
  c.volume,
];

function prepare(db: DB) {
  return {
    // Positional, CANDLES_PER_INSERT rows a statement: it writes every candle of a first start's
    // history (about 90 000 rows), where binding by name costs about half as much again as the
    // insert itself, and a statement per row would be a round trip each on PostgreSQL.
    insertIfMissing: db.prepare(insertCandlesSql(CANDLES_PER_INSERT)),
    newest: db.prepare(
      `SELECT time, open, high, low, close, volume FROM candles
       WHERE instrument_id = @instrumentId AND period = @period ORDER BY time DESC LIMIT @limit`,
    ),
    newestCloses: db.prepare(
      `SELECT time, close FROM candles
       WHERE instrument_id = @instrumentId AND period = @period ORDER BY time DESC LIMIT @limit`,
    ),
    any: db.prepare("SELECT 1 FROM candles WHERE instrument_id = @instrumentId LIMIT 1"),
    pruneOlder: db.prepare(
      `DELETE FROM candles WHERE instrument_id = @instrumentId AND period = @period AND time <
         (SELECT time FROM candles WHERE instrument_id = @instrumentId AND period = @period
          ORDER BY time DESC LIMIT 1 OFFSET @offset)`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/** `rows` candles written over the stored ones of the same instrument, period and start. */
const upsertCandlesSql = (rows: number) =>
  candlesSql(
    rows,
    `ON CONFLICT(instrument_id, period, time) DO UPDATE SET
      open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`,
  );

/**
 * Writes candles, each replacing the stored one of the same instrument, period and start: one
 * statement per ROWS_PER_STATEMENT candles (the caller holds the transaction). On PostgreSQL every
 * statement outside a sequencer's batch is a round trip that holds the event loop: a flush of the
 * simulator's five seconds (every instrument in every period, about 260 candles) took 49 ms at p50
 * one row at a time, 6.5 ms this way (commit included; SQLite about 1.5 ms either way). No two candles may share instrument, period and start
 * (one statement may not update a row twice): the candle book's changed set is keyed by them.
 */
export function upsertCandles(db: DB, candles: readonly CandleRecord[]): void {
  for (const part of chunked(candles))
    prepareOnce(db, upsertCandlesSql(part.length)).run(
      part.flatMap((c) => candleValues(c.instrumentId, c.period, c)),
    );
}

/**
 * Writes candles of one instrument and period, each unless one of the same start is stored (the
 * caller holds the transaction).
 */
export function insertCandlesIfMissing(
  db: DB,
  q: { instrumentId: number; period: Period; candles: readonly Candle[] },
): void {
  if (db.dialect === "postgres") return insertCandlesIfMissingPg(db, q);
  const row = (c: Candle) => candleValues(q.instrumentId, q.period, c);
  for (let i = 0; i < q.candles.length; i += CANDLES_PER_INSERT) {
    const chunk = q.candles.slice(i, i + CANDLES_PER_INSERT);
    const st =
      chunk.length === CANDLES_PER_INSERT
        ? stmts(db).insertIfMissing
        : db.prepare(insertCandlesSql(chunk.length));
    st.run(chunk.flatMap(row));
  }
}

/** Rows one PostgreSQL statement of insertCandlesIfMissing writes (eight arrays of this length). */
const CANDLES_PER_UNNEST = 5_000;

/**
 * PostgreSQL's form of insertCandlesIfMissing, the one statement written per store: eight arrays
 * unnested into rows, a few statements for a whole history instead of hundreds (each statement is
 * a round trip on PostgreSQL; SQLite has no arrays and no round trips).
 */
function insertCandlesIfMissingPg(
  db: DB,
  q: { instrumentId: number; period: Period; candles: readonly Candle[] },
): void {
  const st = db.prepare(
    `INSERT INTO candles (instrument_id, period, time, open, high, low, close, volume)
     SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::float8[], ?::float8[],
       ?::float8[], ?::float8[], ?::float8[])
     ON CONFLICT DO NOTHING`,
  );
  for (let i = 0; i < q.candles.length; i += CANDLES_PER_UNNEST) {
    const chunk = q.candles.slice(i, i + CANDLES_PER_UNNEST);
    const column = (f: (c: Candle) => unknown) => new SqlArray(chunk.map(f));
    st.run(
      column(() => q.instrumentId),
      column(() => q.period),
      column((c) => c.time),
      column((c) => c.open),
      column((c) => c.high),
      column((c) => c.low),
      column((c) => c.close),
      column((c) => c.volume),
    );
  }
}

/** The `limit` newest stored candles of one period, newest first. */
export function newestCandles(
  db: DB,
  q: { instrumentId: number; period: Period; limit: number },
): Candle[] {
  return stmts(db).newest.all(q) as Candle[];
}

/** The newest stored candle of one period. */
export function newestCandle(
  db: DB,
  q: { instrumentId: number; period: Period },
): Candle | undefined {
  return stmts(db).newest.get({ ...q, limit: 1 }) as Candle | undefined;
}

/** Start and close of the `limit` newest stored candles of one period, newest first. */
export function newestCloses(
  db: DB,
  q: { instrumentId: number; period: Period; limit: number },
): { time: number; close: number }[] {
  return stmts(db).newestCloses.all(q) as { time: number; close: number }[];
}

/** True when any candle of the instrument is stored. */
export function hasCandles(db: DB, q: { instrumentId: number }): boolean {
  return stmts(db).any.get(q) !== undefined;
}

/**
 * Deletes the candles of one period older than its `keep` newest (none when fewer are stored).
 * Returns how many it deleted.
 */
export function pruneCandlesBeyond(
  db: DB,
  q: { instrumentId: number; period: Period; keep: number },
): number {
  return stmts(db).pruneOlder.run({
    instrumentId: q.instrumentId,
    period: q.period,
    offset: q.keep - 1,
  }).changes;
}
