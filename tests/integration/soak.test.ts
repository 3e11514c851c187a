/**
 * A short crash soak (tests/soak/soak.ts; npm run soak runs the long one): the real upstream killed
 * with SIGKILL 3 times under concurrent clients; every acknowledged order survives, the ledger
 * invariants hold after each restart, and idempotent retries create nothing twice.
 */
import { describe, expect, it } from "vitest";
import { formatSoak, runSoak } from "../soak/soak.js";
import { newTestStoreWhere, testDialect, TEST_OPERATOR_SECRET_KEY } from "../support/test-store.js";
import { runSeed } from "../support/lane.js";

const SEED = runSeed(20261105, "SOAK_SEED");

describe("crash soak", () => {
  it("keeps every acknowledged order and the ledger invariants across 3 SIGKILLs", async () => {
    console.log(`soak seed ${SEED} (replay: SOAK_SEED=${SEED} npx vitest run ${__filename})`);
    const r = await runSoak({
      seed: SEED,
      kills: 3,
      clients: 3,
      maxRunMs: 600,
      postgres:
        testDialect() === "postgres"
          ? { databaseUrl: newTestStoreWhere(), operatorSecretKey: TEST_OPERATOR_SECRET_KEY }
          : undefined,
    });
    console.log(formatSoak(r));
    expect(r.breaches).toEqual([]);
    expect(r.kills).toBe(3);
    expect(r.acknowledged).toBeGreaterThan(0);
    expect(r.found).toBe(r.acknowledged);
    expect(r.lost).toBe(0);
    expect(r.replayed).toBeGreaterThan(0);
    for (const [name, t] of Object.entries(r.invariants))
      expect({ name, ...t }).toMatchObject({ name, failed: 0 });
  }, 120_000);
});
