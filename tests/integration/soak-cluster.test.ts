/**
 * A short cluster soak (tests/soak/cluster.ts; `npm run soak:cluster` runs 20 kills): PostgreSQL,
 * NATS and two upstream nodes, the leader killed with SIGKILL 3 times while clients place and close
 * orders with idempotency keys through both nodes. Each time a standby leads within 10 s and the
 * killed node comes back as a standby; no acknowledged command is lost, no key makes two orders, and
 * the ledger check finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServices, startTestCluster, type TestCluster } from "../support/cluster";
import { SUITE_TAKE_OVER_BOUND_MS, formatClusterSoak, runClusterSoak } from "../soak/cluster";
import { expectClusterSoakHeld } from "./cluster-soak-expect";

let tc: TestCluster | null = null;

beforeAll(async () => {
  ensureServices();
  // No web nodes: the soak's clients speak to the upstream nodes.
  tc = await startTestCluster({ name: "soak-cluster-test", ports: [25_000, 28_500], webs: 0 });
}, 180_000);

afterAll(async () => {
  await tc?.close();
}, 60_000);

describe("cluster soak", () => {
  it("loses no acknowledged command and makes no second order across 3 leader kills", async () => {
    const r = await runClusterSoak(tc!.cluster, {
      kills: 3,
      clients: 3,
      runMs: 800,
      takeOverBoundMs: SUITE_TAKE_OVER_BOUND_MS,
    });
    console.log(formatClusterSoak(r));
    expect(r.kills).toBe(3);
    expectClusterSoakHeld(r, 3);
  }, 150_000);
});
