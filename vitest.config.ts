import { defineConfig } from "vitest/config";
import path from "node:path";

/**
 * Two projects with the same aliases and time limits:
 * - unit: pure modules and in-memory stores. Its files share one module cache per worker
 *   (isolate off): each file makes its own databases, engines and fake clocks and restores what it
 *   changes, so a fresh process per file would only repeat the imports (38 s → 24 s).
 * - integration: each file starts real servers (upstream, web) as child processes and mostly waits
 *   on them, so four files run at once on a 2-core machine (131 s → 75 s), one process each.
 * - unit-postgres, integration-postgres: the tests that write through the store again, on
 *   PostgreSQL (one server for the run, a new database per store and per upstream:
 *   tests/support/test-store.ts, tests/integration/upstream-harness.ts).
 */

/** The unit tests that run on both stores: every one that writes through the store. */
const ON_BOTH_STORES_UNIT = [
  "tests/unit/engine-*.test.ts",
  "tests/unit/copy-*.test.ts",
  "tests/unit/money-*.test.ts",
  "tests/unit/market-history.test.ts",
  "tests/unit/market-feed.test.ts",
  "tests/unit/addresses.test.ts",
  "tests/unit/verify.test.ts",
  "tests/unit/upstream-codes.test.ts",
  "tests/unit/upstream-limits.test.ts",
];
/**
 * The integration tests that run on both stores: every upstream one that reaches the store, within
 * about 90 s on a 2-core machine (85 s measured). Left to SQLite: the web-*, live and ws tests
 * (their own work), live-bridge and nats-broker (pushes, not the store), openapi (the document
 * only), code-delivery (SMTP and SMS; its outbox writes, sent and failed, run in accounts) and
 * market-manual (its price path runs in trading, estimate and the fuzz).
 */
const ON_BOTH_STORES_INTEGRATION = [
  "tests/integration/accounts.test.ts",
  "tests/integration/company.test.ts",
  "tests/integration/content.test.ts",
  "tests/integration/estimate.test.ts",
  "tests/integration/copy.test.ts",
  "tests/integration/follow.test.ts",
  "tests/integration/four-eyes.test.ts",
  "tests/integration/fuzz-upstream.test.ts",
  "tests/integration/ledger-check.test.ts",
  "tests/integration/limits.test.ts",
  "tests/integration/market.test.ts",
  "tests/integration/money.test.ts",
  "tests/integration/operator-roles.test.ts",
  "tests/integration/operators.test.ts",
  "tests/integration/profile.test.ts",
  "tests/integration/request-schemas.test.ts",
  "tests/integration/settings.test.ts",
  "tests/integration/soak.test.ts",
  "tests/integration/store-concurrency.test.ts",
  "tests/integration/trading-rules.test.ts",
  "tests/integration/trading.test.ts",
  "tests/integration/upload-sweep.test.ts",
  "tests/integration/uploads.test.ts",
  "tests/integration/verify.test.ts",
];
const POSTGRES_SETUP = "tests/support/postgres-setup.ts";
export const shared = {
  resolve: {
    alias: {
      "~": path.resolve(__dirname, "app"),
      "@contract": path.resolve(__dirname, "contract"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
} as const;

export default defineConfig({
  resolve: shared.resolve,
  test: {
    ...shared.test,
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], isolate: false },
      },
      {
        extends: true,
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "unit-postgres",
          include: ON_BOTH_STORES_UNIT,
          isolate: false,
          env: { TEST_STORE: "postgres" },
          globalSetup: [POSTGRES_SETUP],
        },
      },
      {
        extends: true,
        test: {
          name: "integration-postgres",
          include: ON_BOTH_STORES_INTEGRATION,
          env: { TEST_STORE: "postgres" },
          globalSetup: [POSTGRES_SETUP],
          // An upstream's first start writes its market history (about 80 000 candle rows): about
          // 1.5 s on PostgreSQL against 0.3 s on SQLite, and a test may start two or three.
          testTimeout: 40_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
