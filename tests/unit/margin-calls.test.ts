/**
 * The margin-call notice (modules/notify/margin-calls.ts): an account is told when its level falls
 * to the margin-call level, once while it stays there, again after it has been above; a copy's or a
 * strategy trader's account is never told. The engine's levels are set by the test; the notices
 * are written to a real store.
 */
import { afterEach, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import type { Engine } from "../../upstream/modules/trading/engine.js";
import { MarginCallWatch } from "../../upstream/modules/notify/margin-calls.js";
import { openTestStore } from "../support/test-store.js";

let db: DB | null = null;
afterEach(() => {
  db?.close();
  db = null;
});

it("tells an account once per fall to the margin-call level, and only a person's", () => {
  db = openTestStore();
  const store = db;
  const user = (uid: string) =>
    Number(
      store
        .prepare("INSERT INTO users (uid, email, invite_code, created_at) VALUES (?, ?, ?, 0)")
        .run(uid, `${uid}@example.com`, `INV${uid}`).lastInsertRowid,
    );
  const person = user("mc1");
  const copyAccount = user("mc2");
  const levels = new Map<number, number>([
    [person, 150],
    [copyAccount, 60],
  ]);
  const engine = {
    settings: () => ({ marginCallPct: 100 }),
    marginLevels: (fn: (userId: number, level: number) => void) => {
      for (const [u, l] of levels) fn(u, l);
    },
  } as unknown as Engine;
  const watch = new MarginCallWatch({
    db: store,
    engine,
    run: async (command) => command(),
    isPerson: (userId) => userId !== copyAccount,
    log: { error: (o) => console.error(o) },
  });
  const told = () =>
    (
      store
        .prepare("SELECT user_id, params FROM notifications WHERE kind = 'margin_call' ORDER BY id")
        .all() as { user_id: number; params: string }[]
    ).map((n) => ({ userId: n.user_id, ...JSON.parse(n.params) }));

  watch.look();
  expect(told()).toEqual([]);
  levels.set(person, 99.5);
  watch.look();
  watch.look();
  expect(told()).toEqual([{ userId: person, level: 99.5, call: 100 }]);
  levels.set(person, 100.01);
  watch.look();
  levels.set(person, 80);
  watch.look();
  expect(told().map((n) => n.level)).toEqual([99.5, 80]);
});
