/**
 * Row counts a write must have, checked without holding up the command (TIGER_STYLE: the
 * invariant is still asserted, where the answer arrives). On a store that ran the write, at once;
 * on PostgreSQL inside the sequencer's batch, where the write waits to be sent with others
 * (write-behind, store/pg.ts), when it runs: a write that changed another number of rows then fails,
 * and with it the batch, before anything of the batch is committed.
 */
import type { RunResult } from "./types.js";

/** A write's result that may arrive later: `expect(rows, message)` is checked when it does. */
export interface LaterRunResult extends RunResult {
  expect(rows: number, message: string): void;
}

function isLater(r: RunResult): r is LaterRunResult {
  return typeof (r as Partial<LaterRunResult>).expect === "function";
}

/** Fails (with `message`) unless the write changed exactly `rows` rows: at once, or when it runs. */
export function expectChanges(r: RunResult, rows: number, message: string): void {
  if (isLater(r)) r.expect(rows, message);
  else if (r.changes !== rows) throw new Error(message);
}
