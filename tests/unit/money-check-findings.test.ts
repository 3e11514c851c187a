/**
 * The ledger check (upstream/modules/money/check.ts), breach by breach, on a store written row by
 * row: each rule of the check against the smallest store that breaks it (and the one next to it
 * that does not), so that an operator's ledger check names exactly the user, order, withdrawal or
 * deposit at fault, and nothing else.
 */
import { openTestStore } from "../support/test-store.js";
import { afterEach, describe, expect, it } from "vitest";
import type { DB, SqliteDb } from "../../upstream/platform/db.js";
import { CHECK_NAMES, checkLedger, type Finding } from "../../upstream/modules/money/check.js";

const opened: DB[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

interface OrderCols {
  status: number;
  open_price: number | null;
  opened_at: number | null;
  close_price: number | null;
  closed_at: number | null;
  profit_micro: number | null;
  margin_micro: number;
  fee_micro: number;
}

/** A fresh store (foreign keys off: the rows are written one by one, as a broken store may hold them). */
function store() {
  const d = openTestStore();
  if (d.dialect === "sqlite") (d as SqliteDb).pragma("foreign_keys = OFF");
  // PostgreSQL: a session that replicates skips the foreign keys' triggers (a superuser's right).
  else d.exec("SET session_replication_role = replica");
  opened.push(d);
  let n = 0;
  const user = (): number =>
    Number(
      d
        .prepare("INSERT INTO users (uid, invite_code, created_at) VALUES (?, ?, 0)")
        .run(`c${++n}`, `I${n}`).lastInsertRowid,
    );
  /** A ledger row with a correct running balance (the user's balance moves with it). */
  const row = (userId: number, amount: number, kind: string, ref: string | null = null) => {
    const { b } = d
      .prepare(
        "UPDATE users SET balance_micro = balance_micro + ? WHERE id = ? RETURNING balance_micro AS b",
      )
      .get(amount, userId) as { b: number };
    d.prepare(
      "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, ref, created_at) VALUES (?, ?, ?, ?, ?, 0)",
    ).run(userId, amount, b, kind, ref);
  };
  const order = (userId: number, cols: Partial<OrderCols>): number => {
    const o: OrderCols = {
      status: 0,
      open_price: null,
      opened_at: null,
      close_price: null,
      closed_at: null,
      profit_micro: null,
      margin_micro: 0,
      fee_micro: 0,
      ...cols,
    };
    return Number(
      d
        .prepare(
          `INSERT INTO orders (user_id, instrument_id, order_type, status, lots, units, leverage, origin_price,
             open_price, opened_at, close_price, closed_at, profit_micro, margin_micro, fee_micro, created_at)
           VALUES (?, 1, 1, ?, '0.1', '10000', 100, 1.1, ?, ?, ?, ?, ?, ?, ?, 0)`,
        )
        .run(
          userId,
          o.status,
          o.open_price,
          o.opened_at,
          o.close_price,
          o.closed_at,
          o.profit_micro,
          o.margin_micro,
          o.fee_micro,
        ).lastInsertRowid,
    );
  };
  /** A withdrawal row (status 0 reviewing, 1 paid, 2 rejected, 3 cancelled); no ledger row. */
  const draw = (userId: number, amount: number, status: number): number =>
    Number(
      d
        .prepare(
          "INSERT INTO draws (user_id, type, draw_currency_id, draw_method_id, amount_micro, fee_micro, net, status, created_at) VALUES (?, 1, 1, 1, ?, 0, '0', ?, 0)",
        )
        .run(userId, amount, status).lastInsertRowid,
    );
  /** A deposit row (status 1 finished with `credited`, otherwise none credited); no ledger row. */
  const charge = (userId: number, status: number, credited: number | null): number =>
    Number(
      d
        .prepare(
          "INSERT INTO charges (user_id, type, channel_id, currency_code, amount_micro, credited_micro, proof, status, created_at) VALUES (?, 0, 1, 'USDT', 100, ?, ?, ?, 0)",
        )
        .run(userId, credited, `p${++n}.jpg`, status).lastInsertRowid,
    );
  const lock = (userId: number, amount: number) =>
    d.prepare("UPDATE users SET lock_balance_micro = ? WHERE id = ?").run(amount, userId);
  return { d, user, row, order, draw, charge, lock };
}

/** The findings as [check, user, order] (the message is for people; these say who is at fault). */
const found = (d: DB): [string, number | undefined, number | undefined][] =>
  checkLedger(d).findings.map((f: Finding) => [f.check, f.userId, f.orderId]);
const checksOf = (d: DB) => checkLedger(d).findings.map((f) => f.check);

describe("ledger check: order columns against the order's status", () => {
  it("accepts each status with the columns that status has", () => {
    const s = store();
    const u = s.user();
    s.order(u, {}); // pending
    s.order(u, { status: 1, open_price: 1.1, opened_at: 1, margin_micro: 5 }); // open
    s.order(u, {
      status: 3,
      open_price: 1.1,
      opened_at: 1,
      close_price: 1.2,
      closed_at: 2,
      profit_micro: 0,
      margin_micro: 5,
    }); // closed flat (no profit row due)
    s.order(u, { status: 4, closed_at: 2 }); // cancelled, never filled
    expect(found(s.d)).toEqual([]);
    expect(checkLedger(s.d)).toMatchObject({ users: 1, ledgerRows: 0, orders: 4 });
  });

  it("finds a pending order with a fill, any part of a close, or margin held", () => {
    const s = store();
    const u = s.user();
    const bad = [
      s.order(u, { open_price: 1.1, opened_at: 1 }),
      s.order(u, { close_price: 1.2 }),
      s.order(u, { closed_at: 2 }),
      s.order(u, { profit_micro: 0 }),
      s.order(u, { margin_micro: 5 }),
    ];
    expect(found(s.d).filter(([c]) => c === "order_state")).toEqual(
      bad.map((id) => ["order_state", u, id]),
    );
  });

  it("finds an open order without its fill price or time, with a close, or without margin", () => {
    const s = store();
    const u = s.user();
    const open = { status: 1, open_price: 1.1, opened_at: 1, margin_micro: 5 };
    const bad = [
      s.order(u, { ...open, open_price: null }),
      s.order(u, { ...open, opened_at: null }),
      s.order(u, { ...open, closed_at: 2 }),
      s.order(u, { ...open, profit_micro: 5 }), // a profit, but no close: no profit row wanted
      s.order(u, { ...open, margin_micro: 0 }),
    ];
    expect(found(s.d)).toEqual(bad.map((id) => ["order_state", u, id]));
  });

  it("finds a closed order without its fill or without its close price, time or profit", () => {
    const s = store();
    const u = s.user();
    const closed = {
      status: 3,
      open_price: 1.1,
      opened_at: 1,
      close_price: 1.2,
      closed_at: 2,
      profit_micro: 0,
      margin_micro: 5,
    };
    const bad = [
      s.order(u, { ...closed, opened_at: null }),
      s.order(u, { ...closed, close_price: null }),
      s.order(u, { ...closed, closed_at: null }),
      s.order(u, { ...closed, profit_micro: null }),
    ];
    expect(found(s.d)).toEqual(bad.map((id) => ["order_state", u, id]));
  });

  it("finds a cancelled order that was filled or has no time", () => {
    const s = store();
    const u = s.user();
    const bad = [
      s.order(u, { status: 4, closed_at: 2, open_price: 1.1, opened_at: 1 }),
      s.order(u, { status: 4 }),
    ];
    expect(found(s.d)).toEqual(bad.map((id) => ["order_state", u, id]));
  });

  it("finds a negative margin or fee whatever the status; zero is fine", () => {
    const s = store();
    const u = s.user();
    s.order(u, { status: 4, closed_at: 2, margin_micro: 0, fee_micro: 0 });
    const bad = [
      s.order(u, { status: 4, closed_at: 2, margin_micro: -1 }),
      s.order(u, { status: 4, closed_at: 2, fee_micro: -1 }),
    ];
    expect(found(s.d)).toEqual(bad.map((id) => ["order_state", u, id]));
  });
});

describe("ledger check: an order's fee and realised profit rows", () => {
  const open = { status: 1, open_price: 1.1, opened_at: 1, margin_micro: 5 };
  const closed = { ...open, status: 3, close_price: 1.2, closed_at: 2 };

  it("wants exactly one fee row of minus the fee of a filled order, and none without a fee", () => {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    const ok = s.order(u, { ...open, fee_micro: 7 });
    s.row(u, -7, "fee", `order:${ok}`);
    s.order(u, { ...open, fee_micro: 0 }); // no fee, no row: fine
    const missing = s.order(u, { ...open, fee_micro: 7 });
    const wrong = s.order(u, { ...open, fee_micro: 7 });
    s.row(u, -8, "fee", `order:${wrong}`);
    const positive = s.order(u, { ...open, fee_micro: 7 });
    s.row(u, 7, "fee", `order:${positive}`);
    expect(found(s.d)).toEqual([
      ["order_fee", u, missing],
      ["order_fee", u, wrong],
      ["order_fee", u, positive],
    ]);
  });

  it("wants one realised_profit row of a closed order's profit, none for a flat or an open one", () => {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    const won = s.order(u, { ...closed, profit_micro: 50 });
    s.row(u, 50, "realised_profit", `order:${won}`);
    s.order(u, { ...closed, profit_micro: 0 }); // flat: no row, fine
    const flatWithRow = s.order(u, { ...closed, profit_micro: 0 });
    s.row(u, 0, "realised_profit", `order:${flatWithRow}`);
    const unbooked = s.order(u, { ...closed, profit_micro: -30 });
    const openWithProfit = s.order(u, open);
    s.row(u, 20, "realised_profit", `order:${openWithProfit}`);
    // Other kinds of rows of an order (protection) are neither fee nor profit.
    const prot = s.order(u, { ...closed, profit_micro: 0 });
    s.row(u, 5, "protection", `order:${prot}`);
    expect(found(s.d)).toEqual([
      ["order_profit", u, flatWithRow],
      ["order_profit", u, unbooked],
      ["order_profit", u, openWithProfit],
    ]);
  });

  it("finds a row referring to an order that does not exist, and books it to no order", () => {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    s.row(u, -5, "fee", "order:4242");
    expect(found(s.d)).toEqual([["ledger_ref", u, 4242]]);
  });
});

describe("ledger check: balances and locks", () => {
  it("finds ledger rows of a user that does not exist", () => {
    const s = store();
    const u = s.user();
    s.row(u, 10, "deposit");
    s.d
      .prepare(
        "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, created_at) VALUES (999, 5, 5, 'deposit', 0)",
      )
      .run();
    expect(found(s.d)).toEqual([["balance_sum", 999, undefined]]);
  });

  it("a user without any row has a balance of 0", () => {
    const s = store();
    const u = s.user();
    expect(found(s.d)).toEqual([]);
    s.d.prepare("UPDATE users SET balance_micro = 1 WHERE id = ?").run(u);
    expect(found(s.d)).toEqual([["balance_sum", u, undefined]]);
  });

  it("counts in the lock only the withdrawals under review", () => {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    const paid = s.draw(u, 300, 1);
    s.row(u, -300, "withdrawal_request", `draw:${paid}`);
    const open = s.draw(u, 200, 0);
    s.row(u, -200, "withdrawal_request", `draw:${open}`);
    s.lock(u, 200);
    expect(found(s.d)).toEqual([]);
    s.lock(u, 500);
    expect(found(s.d)).toEqual([["lock", u, undefined]]);
  });
});

describe("ledger check: withdrawals", () => {
  /** A user with 1000 and one withdrawal of 100 in `status`, with its request row. */
  function withdrawn(status: number) {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    const id = s.draw(u, 100, status);
    s.row(u, -100, "withdrawal_request", `draw:${id}`);
    if (status === 0) s.lock(u, 100);
    return { s, u, id };
  }

  it("wants a returned row for a rejected or cancelled one, and none for a paid one", () => {
    for (const status of [2, 3]) {
      const { s, u, id } = withdrawn(status);
      expect(checksOf(s.d)).toEqual(["draw"]);
      s.row(u, 100, "withdrawal_returned", `draw:${id}`);
      expect(checksOf(s.d)).toEqual([]);
    }
    const { s, u, id } = withdrawn(1);
    expect(checksOf(s.d)).toEqual([]);
    s.row(u, 100, "withdrawal_returned", `draw:${id}`);
    expect(found(s.d)).toEqual([["draw", u, undefined]]);
  });

  it("finds a request row of another amount or another user, a returned row of another amount, and an extra row", () => {
    const cases: [string, (s: ReturnType<typeof store>, u: number) => void][] = [
      [
        "request of another amount",
        (s, u) => {
          const id = s.draw(u, 100, 1);
          s.row(u, -99, "withdrawal_request", `draw:${id}`);
        },
      ],
      [
        "request booked to another user",
        (s, u) => {
          const other = s.user();
          const id = s.draw(other, 100, 1);
          s.row(u, -100, "withdrawal_request", `draw:${id}`);
        },
      ],
      [
        "returned of another amount",
        (s, u) => {
          const id = s.draw(u, 100, 2);
          s.row(u, -100, "withdrawal_request", `draw:${id}`);
          s.row(u, 99, "withdrawal_returned", `draw:${id}`);
        },
      ],
      [
        "no request row",
        (s, u) => {
          s.draw(u, 100, 1);
        },
      ],
      [
        "two request rows",
        (s, u) => {
          const id = s.draw(u, 100, 1);
          s.row(u, -100, "withdrawal_request", `draw:${id}`);
          s.row(u, -100, "withdrawal_request", `draw:${id}`);
        },
      ],
      [
        "a row of another kind",
        (s, u) => {
          const id = s.draw(u, 100, 1);
          s.row(u, -100, "withdrawal_request", `draw:${id}`);
          s.row(u, 1, "adjustment", `draw:${id}`);
        },
      ],
    ];
    for (const [what, breach] of cases) {
      const s = store();
      const u = s.user();
      s.row(u, 1000, "deposit");
      breach(s, u);
      expect(checksOf(s.d), what).toEqual(["draw"]);
    }
  });
});

describe("ledger check: deposits", () => {
  it("wants one deposit row of the credited amount, of the depositing user, for a finished deposit", () => {
    const good = store();
    const gu = good.user();
    const gc = good.charge(gu, 1, 100);
    good.row(gu, 100, "deposit", `charge:${gc}`);
    good.charge(gu, 2, null); // rejected: no row, fine
    expect(found(good.d)).toEqual([]);

    const cases: [string, (s: ReturnType<typeof store>, u: number) => void][] = [
      ["no row", (s, u) => void s.charge(u, 1, 100)],
      ["another amount", (s, u) => s.row(u, 99, "deposit", `charge:${s.charge(u, 1, 100)}`)],
      ["another kind", (s, u) => s.row(u, 100, "adjustment", `charge:${s.charge(u, 1, 100)}`)],
      [
        "another user",
        (s, u) => {
          const other = s.user();
          s.row(other, 100, "deposit", `charge:${s.charge(u, 1, 100)}`);
        },
      ],
      [
        "credited twice",
        (s, u) => {
          const id = s.charge(u, 1, 100);
          s.row(u, 100, "deposit", `charge:${id}`);
          s.row(u, 100, "deposit", `charge:${id}`);
        },
      ],
    ];
    for (const [what, breach] of cases) {
      const s = store();
      const u = s.user();
      breach(s, u);
      expect(found(s.d), what).toEqual([["charge", u, undefined]]);
    }
  });
});

describe("ledger check: references and the report", () => {
  it("reports its checks in a fixed order, each by name", () => {
    expect(CHECK_NAMES).toEqual([
      "balance_sum",
      "balance_chain",
      "lock",
      "draw",
      "charge",
      "order_state",
      "order_fee",
      "order_profit",
      "ledger_ref",
    ]);
  });

  it("reads references with ids of any length, and only references of exactly that form", () => {
    const s = store();
    const u = s.user();
    s.row(u, 100_000, "deposit");
    for (let i = 0; i < 12; i++) {
      const d = s.draw(u, 10, 1);
      s.row(u, -10, "withdrawal_request", `draw:${d}`);
      const c = s.charge(u, 1, 100);
      s.row(u, 100, "deposit", `charge:${c}`);
      const o = s.order(u, {
        status: 1,
        open_price: 1.1,
        opened_at: 1,
        margin_micro: 5,
        fee_micro: 3,
      });
      s.row(u, -3, "fee", `order:${o}`);
    }
    expect(found(s.d)).toEqual([]);
    // Rows whose reference only looks like an order's are not that order's rows.
    s.row(u, -3, "fee", "xorder:1");
    s.row(u, -3, "fee", "order:1x");
    s.row(u, 5, "adjustment", "xdraw:1");
    s.row(u, 5, "adjustment", "charge:1x");
    expect(found(s.d)).toEqual([]);
  });

  it("an order never filled wants no fee row, whatever fee it shows", () => {
    const s = store();
    const u = s.user();
    s.order(u, { status: 4, closed_at: 2, fee_micro: 5 });
    expect(found(s.d)).toEqual([]);
  });

  it("each finding tells the operator the figures that disagree", () => {
    const s = store();
    const u = s.user();
    s.row(u, 1000, "deposit");
    const d = s.draw(u, 100, 2);
    s.row(u, -99, "withdrawal_request", `draw:${d}`);
    const c = s.charge(u, 1, 100);
    s.row(u, 90, "deposit", `charge:${c}`);
    const o = s.order(u, {
      status: 1,
      open_price: 1.1,
      opened_at: 1,
      margin_micro: 5,
      fee_micro: 7,
    });
    s.row(u, -8, "fee", `order:${o}`);
    const p = s.order(u, {
      status: 3,
      open_price: 1.1,
      opened_at: 1,
      close_price: 1.2,
      closed_at: 2,
      profit_micro: 40,
      margin_micro: 5,
    });
    s.row(u, 41, "realised_profit", `order:${p}`);
    s.row(u, 1, "adjustment", "order:999");
    const bad = s.order(u, { status: 4, closed_at: 2, margin_micro: -3 });
    // The rows sum to 1025; the balance says one more, and 7 are locked for no withdrawal.
    s.d
      .prepare(
        "UPDATE users SET balance_micro = balance_micro + 1, lock_balance_micro = 7 WHERE id = ?",
      )
      .run(u);
    const messages = Object.fromEntries(
      checkLedger(s.d).findings.map((f) => [`${f.check}${f.orderId ?? ""}`, f.message]),
    );
    expect(messages[`draw`]).toContain(`withdrawal ${d}`);
    expect(messages[`draw`]).toContain("withdrawal_request -99");
    expect(messages[`charge`]).toContain(`deposit ${c}`);
    expect(messages[`charge`]).toContain("credited 100");
    expect(messages[`charge`]).toContain("deposit 90");
    expect(messages[`order_fee${o}`]).toContain("fee 7");
    expect(messages[`order_fee${o}`]).toContain("[-8]");
    expect(messages[`order_profit${p}`]).toContain("profit 40");
    expect(messages[`order_profit${p}`]).toContain("[41]");
    expect(messages[`ledger_ref999`]).toContain("order 999");
    expect(messages[`order_state${bad}`]).toContain("-3");
    expect(messages[`lock`]).toContain("locked 7");
    expect(messages[`balance_sum`]).toContain("balance 1026");
    expect(messages[`balance_sum`]).toContain("ledger sum 1025");
    // The running balance of a row that breaks the chain, and the sum it should have.
    const s2 = store();
    const v = s2.user();
    s2.row(v, 10, "deposit");
    s2.d
      .prepare(
        "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, created_at) VALUES (?, 5, 99, 'adjustment', 0)",
      )
      .run(v);
    const chain = checkLedger(s2.d).findings.find((f) => f.check === "balance_chain");
    expect(chain?.message).toContain("balance after 99");
    expect(chain?.message).toContain("running sum 15");
  });
});
