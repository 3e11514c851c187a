import { defineConfig } from "vitest/config";
import path from "node:path";
import { IntegrationFirst } from "./tests/support/sequencer";

/**
 * Four projects with the same aliases and time limits:
 * - unit: pure modules and in-memory stores, in two worker threads that each keep one module cache
 *   for all the files they run (the threads pool with `isolate: false`). A unit file's own tests take
 *   milliseconds; what it cost was a process and its imports (zod, the contract, the engine) loaded
 *   again for every file: 44 s and 84 CPU-seconds for the project against 25-28 s and 46 with the
 *   shared cache (measured 2026-11-29; the whole run 164 s → 147 s). Each file puts back the
 *   environment it changes (a thread has its own process.env). The files pass in any order (checked
 *   with `--sequence.shuffle.files` and several seeds).
 * - integration: each file starts real servers (upstream, web) as child processes and mostly waits
 *   on them, so four files run at once on a 2-core machine (131 s → 75 s).
 *   Each file closes the servers it started and puts back the environment it changed.
 *   Files do not share a module cache: the projects' `isolate: false` is not enough while the
 *   forks pool's own `poolOptions.forks.isolate` is on (its default), and tinypool starts a process
 *   per file. Turning the forks pool's off was measured and left on: vitest 3.2 then ends workers
 *   with files still running ("Terminating worker thread"), and these files change the process's
 *   environment and start servers that must not outlive their file.
 * - unit-postgres, integration-postgres: the tests that write through the store again, on
 *   PostgreSQL (one server for the run, a new database per store and per upstream:
 *   tests/support/test-store.ts, tests/integration/upstream-harness.ts). unit-postgres shares the
 *   unit project's threads: 24 s and 44 CPU-seconds as processes, 18 s and 32 in threads; the whole
 *   run 147 s → 130 s (2026-11-29).
 *
 * Two lanes (tests/support/lane.ts, decision 0022). `npm test` is the fast lane: every test on
 * SQLite, and on PostgreSQL every store statement (store-statements) and the areas where a store's
 * behaviour decides the outcome: trading, copy, money, the ledger check, store concurrency, limits
 * and operators. `npm run test:full` (TEST_LANE=full) adds the PostgreSQL reruns of the rest, whose
 * store behaviour cannot differ from what those already prove, and the 3-kill cluster soak.
 */
const FULL = process.env.TEST_LANE === "full";

/**
 * The unit tests that run on PostgreSQL in both lanes: every statement of every store file
 * (store-statements), the store's own contract (engine-store), what commits and rolls back together
 * (engine-tick-group, money-service, money-service-rules), copy trading's whole runs, the limits
 * the store counts, the idempotency key index (its load reads in key order off the event loop), and
 * a tick's bookings as commands of the sequencer (tick-sequencer), the candle book's multi-row
 * upserts (candle-flush) and the trade settings read again off the event loop (trade-settings). The rest of the engine's and money's rules reach PostgreSQL through
 * the integration tests below.
 */
const POSTGRES_UNIT_FAST = [
  "tests/unit/store-statements.test.ts",
  "tests/unit/engine-store.test.ts",
  "tests/unit/engine-tick-group.test.ts",
  "tests/unit/copy-*.test.ts",
  "tests/unit/money-service.test.ts",
  "tests/unit/money-service-rules.test.ts",
  "tests/unit/upstream-limits.test.ts",
  "tests/unit/sequencer.test.ts",
  "tests/unit/tick-sequencer.test.ts",
  "tests/unit/push-loops.test.ts",
  "tests/unit/sequencer-property.test.ts",
  "tests/unit/pg-write-behind.test.ts",
  "tests/unit/idempotency-index.test.ts",
  "tests/unit/candle-flush.test.ts",
  "tests/unit/trade-settings.test.ts",
  "tests/unit/pg-unnest.test.ts",
];
/**
 * The unit tests that run on PostgreSQL in the full lane only: the engine's and the money service's
 * other rules, bulk paths and property runs, whose statements store-statements prepares and runs
 * and whose outcomes the SQLite runs and the PostgreSQL integration tests already hold; the
 * market's history and feed; codes, addresses and verification.
 */
const POSTGRES_UNIT_FULL = [
  "tests/unit/engine-*.test.ts",
  "tests/unit/money-*.test.ts",
  "tests/unit/market-history.test.ts",
  "tests/unit/market-feed.test.ts",
  "tests/unit/addresses.test.ts",
  "tests/unit/verify.test.ts",
  "tests/unit/upstream-codes.test.ts",
];
/** The integration tests that run on PostgreSQL in both lanes. */
const POSTGRES_INTEGRATION_FAST = [
  "tests/integration/trading.test.ts",
  "tests/integration/copy.test.ts",
  "tests/integration/money.test.ts",
  "tests/integration/ledger-check.test.ts",
  "tests/integration/store-concurrency.test.ts",
  "tests/integration/limits.test.ts",
  "tests/integration/operators.test.ts",
];
/** The upstream integration tests that run on PostgreSQL in the full lane only. */
const POSTGRES_INTEGRATION_FULL = [
  "tests/integration/alerts.test.ts",
  "tests/integration/watchlists.test.ts",
  "tests/integration/notify.test.ts",
  "tests/integration/push.test.ts",
  "tests/integration/security.test.ts",
  "tests/integration/operator-roles.test.ts",
  "tests/integration/accounts.test.ts",
  "tests/integration/company.test.ts",
  "tests/integration/content.test.ts",
  "tests/integration/estimate.test.ts",
  "tests/integration/follow.test.ts",
  "tests/integration/four-eyes.test.ts",
  "tests/integration/fuzz-upstream.test.ts",
  "tests/integration/market.test.ts",
  "tests/integration/profile.test.ts",
  "tests/integration/request-schemas.test.ts",
  "tests/integration/settings.test.ts",
  "tests/integration/soak.test.ts",
  "tests/integration/statements.test.ts",
  "tests/integration/trading-rules.test.ts",
  "tests/integration/upload-sweep.test.ts",
  "tests/integration/uploads.test.ts",
  "tests/integration/verify.test.ts",
];
/** Integration tests of the full lane only: the 3-kill cluster soak. */
const INTEGRATION_FULL_ONLY = ["tests/integration/soak-cluster.test.ts"];

const ON_BOTH_STORES_UNIT = FULL
  ? [...POSTGRES_UNIT_FAST, ...POSTGRES_UNIT_FULL]
  : POSTGRES_UNIT_FAST;
const ON_BOTH_STORES_INTEGRATION = FULL
  ? [...POSTGRES_INTEGRATION_FAST, ...POSTGRES_INTEGRATION_FULL]
  : POSTGRES_INTEGRATION_FAST;
const POSTGRES_SETUP = "tests/support/postgres-setup.ts";
/** The market every new test upstream starts with, written once per run (store-templates.ts). */
const TEMPLATE_SETUP = "tests/support/template-setup.ts";
/** Builds SQLite's native module when `npm install` left it unbuilt (decision 0028). */
const SQLITE_SETUP = "tests/support/sqlite-native-setup.ts";
/** The bundles of the upstream and the web server that test processes start (node-bundle.ts). */
const BUNDLE_SETUP = "tests/support/bundle-setup.ts";
/**
 * Every answer of an upstream the tests start is checked against its endpoint's schema in the
 * contract (CHECK_ANSWERS, upstream/platform/http/answers.ts): a drift fails where it happens.
 */
/**
 * Every test process's environment: upstream answers checked against the contract, and SQLite
 * commits written to the log without a sync each (SQLITE_SYNCHRONOUS=NORMAL): a commit still
 * survives the program's crash, which is what the kill tests do; a sync per commit was about a
 * third of the engine and money files' time. The durability tests set FULL themselves.
 */
const TEST_ENV = { CHECK_ANSWERS: "1", SQLITE_SYNCHRONOUS: "NORMAL" };

export const shared = {
  resolve: {
    alias: {
      "~": path.resolve(__dirname, "app"),
      "@contract": path.resolve(__dirname, "contract"),
    },
  },
  test: {
    environment: "node",
    // Bounds for a hang, with room for a loaded machine: a test of 3-7 s on a quiet 2-core machine
    // (the sign-in limits' password hashes, a cluster's take-over) ran past 20 s beside two busy
    // loops, and CI met three such time-outs. A hang still fails, within a minute; the watchdog
    // reporter bounds the whole run.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll's own default is 1 s: the same room as tests/support/wait.ts `until`.
    expect: { poll: { timeout: 15_000 } },
    pool: "forks",
    env: TEST_ENV,
  },
} as const;

export default defineConfig({
  resolve: shared.resolve,
  test: {
    ...shared.test,
    poolOptions: {
      forks: { maxForks: 4, minForks: 1 },
      threads: { maxThreads: 2, minThreads: 1, isolate: false },
    },
    // The watchdog ends a run that outlives its limit, naming the files still running.
    reporters: ["default", "./tests/support/watchdog-reporter.ts"],
    sequence: { sequencer: IntegrationFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.{ts,tsx}"],
          globalSetup: [SQLITE_SETUP],
          isolate: false,
          pool: "threads",
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          exclude: FULL ? [] : INTEGRATION_FULL_ONLY,
          globalSetup: [SQLITE_SETUP, TEMPLATE_SETUP, BUNDLE_SETUP],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "unit-postgres",
          include: ON_BOTH_STORES_UNIT,
          isolate: false,
          pool: "threads",
          env: { ...TEST_ENV, TEST_STORE: "postgres" },
          globalSetup: [SQLITE_SETUP, POSTGRES_SETUP],
          // Every statement is a round trip to the server: the market's feed and history tests
          // take 7-12 s alone on PostgreSQL and two to three times that beside the full lane's
          // integration processes (2026-12-01).
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration-postgres",
          include: ON_BOTH_STORES_INTEGRATION,
          env: { ...TEST_ENV, TEST_STORE: "postgres" },
          globalSetup: [SQLITE_SETUP, TEMPLATE_SETUP, BUNDLE_SETUP, POSTGRES_SETUP],
          isolate: false,
          // Every statement is a round trip to the server: a test that starts two or three
          // upstreams and drives them takes two to four times its SQLite time.
          testTimeout: 40_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
