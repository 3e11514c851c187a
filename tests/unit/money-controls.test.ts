/**
 * The money controls' day (upstream/modules/operators/money-controls.ts) at a fixed clock: what one
 * operator and one user moved alone is counted for the UTC day only, whatever the hour the suite
 * runs at; what a second operator approved counts toward nobody's total.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import { writeAudit } from "../../upstream/modules/operators/audit.js";
import {
  assertMayPayOut,
  DAY_MS,
  secondOperatorReason,
  utcDayStartMs,
} from "../../upstream/modules/operators/money-controls.js";
import { insertRequest } from "../../upstream/modules/operators/requests-store.js";
import { openTestStore } from "../support/test-store.js";

/** 2026-03-10 23:59:59.999 UTC and the next day's first millisecond. */
const LAST_MS = Date.UTC(2026, 2, 10, 23, 59, 59, 999);
const NEXT_MS = LAST_MS + 1;
const USD = 1_000_000;

let db: DB;
let userId: number;

beforeAll(() => {
  db = openTestStore();
  userId = Number(
    db.prepare("INSERT INTO users (uid, invite_code, created_at) VALUES ('mc1', 'MC1', 0)").run()
      .lastInsertRowid,
  );
});

afterAll(() => db.close());

const moved = (p: { actor: string; action: string; usd: number; at: number; requestId?: number }) =>
  writeAudit(db, {
    actor: p.actor,
    action: p.action,
    target: `user:${userId}`,
    userId,
    amountMicro: p.usd * USD,
    at: p.at,
    requestId: p.requestId ?? null,
  });

const reason = (
  move: "deposit" | "withdrawal" | "adjustment",
  actor: string,
  usd: number,
  nowMs: number,
) => secondOperatorReason(db, { move, actor, userId, amountMicro: usd * USD, nowMs });

describe("money controls: one UTC day", () => {
  it("the day starts at 00:00 UTC", () => {
    expect(utcDayStartMs(LAST_MS)).toBe(Date.UTC(2026, 2, 10));
    expect(utcDayStartMs(NEXT_MS)).toBe(NEXT_MS);
    expect(NEXT_MS % DAY_MS).toBe(0);
  });

  it("an operator's total counts the day's moves made alone, by size; the next day starts afresh", () => {
    moved({ actor: "kim", action: "charge.approve", usd: 30_000, at: LAST_MS - 1_000 });
    moved({ actor: "kim", action: "adjustment", usd: -900, at: LAST_MS - 500 });
    // Approved by a second operator: nobody's total.
    const rid = insertRequest(db, {
      kind: "charge.approve",
      permission: "money",
      target: "charge:1",
      payload: { id: 1, received: null },
      summary: "s",
      note: null,
      requestedBy: "lee",
      requestedAt: LAST_MS - 400,
    });
    moved({
      actor: "kim",
      action: "charge.approve",
      usd: 9_000,
      at: LAST_MS - 300,
      requestId: rid,
    });
    // Moved alone: 30,000 + 900 (the 9,000 a second operator approved is not counted).
    expect(reason("deposit", "kim", 9_999.99, LAST_MS)).toBeNull();
    expect(reason("withdrawal", "kim", 10_000, LAST_MS)).toBeNull();
    moved({ actor: "kim", action: "draw.approve", usd: 10_000, at: LAST_MS - 200 });
    expect(reason("deposit", "kim", 9_100.01, LAST_MS)).toBe(
      "kim's money moved alone today 50000.01, above risk.operator_daily_usd 50000.00",
    );
    expect(reason("deposit", "kim", 9_100.01, NEXT_MS)).toBeNull();
    // Another operator's total is their own.
    expect(reason("deposit", "lee", 9_100.01, LAST_MS)).toBeNull();
  });

  it("a user's adjustments of the day add up, the day's only", () => {
    expect(reason("adjustment", "ned", 101, LAST_MS)).toBe(
      "the user's adjustments today 1001.00, above risk.adjustment_four_eyes_usd 1000.00",
    );
    expect(reason("adjustment", "ned", 101, NEXT_MS)).toBeNull();
    expect(reason("adjustment", "ned", 1000.01, NEXT_MS)).toBe(
      "above risk.adjustment_four_eyes_usd 1000.00",
    );
  });

  it("who put money in today does not pay out today; tomorrow they may", () => {
    expect(() => assertMayPayOut(db, { actor: "kim", userId, nowMs: LAST_MS })).toThrow(
      "draw_own_money_in",
    );
    // lee filed the request kim approved: lee put money in too.
    expect(() => assertMayPayOut(db, { actor: "lee", userId, nowMs: LAST_MS })).toThrow(
      "draw_own_money_in",
    );
    expect(() => assertMayPayOut(db, { actor: "kim", userId, nowMs: NEXT_MS })).not.toThrow();
    expect(() => assertMayPayOut(db, { actor: "ned", userId, nowMs: LAST_MS })).not.toThrow();
  });
});
