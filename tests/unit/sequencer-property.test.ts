/**
 * The sequencer's promise, as a property (issue 32): an answer is sent only for a command whose
 * batch is durable. Random rounds of keyed commands (some refused by their own rule) meet three
 * fates: the batch commits; the batch's write fails (a crash inside the write: nothing of it is
 * stored, no command of it is answered, the node stops and a new one starts from the store); or
 * the node dies between the commit and the replies (nothing is answered, everything is stored) and
 * the clients send every command again with the same key. After each round:
 * - a command answered is in the store (seen from another connection); one refused, or one of a
 *   failed write, is not;
 * - a command sent again after a crash answers what it was first decided, and is stored once.
 * Runs on both stores (unit-postgres too).
 */
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { openStore, type DB } from "../../upstream/platform/db.js";
import { DomainError } from "../../upstream/platform/errors.js";
import { Idempotency } from "../../upstream/platform/idempotency.js";
import { Sequencer, SequencerStopped } from "../../upstream/platform/store/sequencer.js";
import { failingCommits } from "../support/failing-store.js";
import { byLane, runSeed } from "../support/lane.js";
import { newTestStoreWhere, testDialect } from "../support/test-store.js";

const SEED = runSeed(20261129);
const RUNS = testDialect() === "postgres" ? byLane(15, 60) : byLane(40, 200);
/**
 * The bound of the whole property (a guard against a hang, not a measure). On PostgreSQL each
 * round is several round trips to a server that shares the machine with the rest of the suite: the
 * fast lane's 15 runs took 4-5 s in a full run, 8-12 s under `npm run test:calendar`'s clock on a
 * weekend, and more than the suite's 20 s on a weekday, when the other tests' markets are open.
 */
const BOUND_MS = testDialect() === "postgres" ? byLane(120_000, 480_000) : byLane(60_000, 240_000);

type Fate = "commit" | "write fails" | "dies before replies";

const round = fc.record({
  fate: fc.constantFrom<Fate>("commit", "commit", "write fails", "dies before replies"),
  commands: fc.array(
    fc.record({ refused: fc.boolean(), amount: fc.integer({ min: 1, max: 99 }) }),
    {
      minLength: 1,
      maxLength: 8,
    },
  ),
});

const opened: DB[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) if (d.open) d.close();
});

/** One node: its sequencer and its keys' memory over the (failing-on-demand) store. */
function node(store: DB) {
  const seq = new Sequencer({ db: store, onWriteFailure: () => undefined, maxBatchMs: 60_000 });
  return { seq, idem: new Idempotency(store) };
}

describe("the sequencer property", () => {
  it(
    "answers only what is durable; a command sent again after a crash is stored once",
    async () => {
      console.log(
        `sequencer property seed ${SEED} (replay: PROPERTY_SEED=${SEED} npx vitest run ${__filename})`,
      );
      const where = newTestStoreWhere();
      const db = openStore(where);
      const other = openStore(where);
      opened.push(db, other);
      const userId = Number(
        db
          .prepare("INSERT INTO users (uid, invite_code, created_at) VALUES ('seqp', 'SEQP', 0)")
          .run().lastInsertRowid,
      );
      const failing = { on: false };
      const store = failingCommits(db, failing);
      let run = 0;
      const stored = (key: string) =>
        (
          other.prepare("SELECT COUNT(*) AS n FROM seq_probe WHERE k = ?").get(key) as {
            n: number;
          }
        ).n;
      db.exec("CREATE TABLE seq_probe (k TEXT NOT NULL, amount INTEGER NOT NULL)");

      await fc.assert(
        fc.asyncProperty(fc.array(round, { minLength: 1, maxLength: 6 }), async (rounds) => {
          run++;
          let n = node(store);
          for (const [r, { fate, commands }] of rounds.entries()) {
            const keys = commands.map((_, i) => `r${run}-${r}-${i}`);
            const command = (i: number) => () => {
              const params = { amount: commands[i].amount };
              const prior = n.idem.lookup<{ amount: number }>(userId, keys[i], "probe", params);
              if (prior) return prior;
              store
                .prepare("INSERT INTO seq_probe (k, amount) VALUES (?, ?)")
                .run(keys[i], commands[i].amount);
              if (commands[i].refused) throw new DomainError("insufficient_balance");
              n.idem.store(userId, keys[i], "probe", params, params);
              return params;
            };
            failing.on = fate === "write fails";
            const settled = await Promise.allSettled(commands.map((_, i) => n.seq.run(command(i))));
            failing.on = false;

            settled.forEach((s, i) => {
              const { refused, amount } = commands[i];
              if (fate === "write fails") {
                expect(s.status).toBe("rejected");
                expect((s as PromiseRejectedResult).reason).toBeInstanceOf(SequencerStopped);
                expect(stored(keys[i])).toBe(0);
              } else if (refused) {
                expect((s as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
                expect(stored(keys[i])).toBe(0);
              } else {
                expect(s).toEqual({ status: "fulfilled", value: { amount } });
                expect(stored(keys[i])).toBe(1);
              }
            });
            if (fate === "commit") continue;
            // A crash: the answers (if any) never left; a new node starts from the store, and every
            // client sends its command again with the same key.
            n = node(store);
            const again = await Promise.allSettled(commands.map((_, i) => n.seq.run(command(i))));
            again.forEach((s, i) => {
              const { refused, amount } = commands[i];
              if (refused) expect((s as PromiseRejectedResult).reason).toBeInstanceOf(DomainError);
              else expect(s).toEqual({ status: "fulfilled", value: { amount } });
              expect(stored(keys[i])).toBe(refused ? 0 : 1);
            });
          }
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    BOUND_MS,
  );
});
