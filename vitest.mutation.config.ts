/**
 * The vitest config of mutation testing (stryker.config.mjs, `npm run mutation`): the same aliases
 * and options as vitest.config.ts, but only the unit tests that exercise the mutated files (the
 * contract's formulas, the money module, the order engine's rules), so that each mutant runs in
 * seconds. Left out: engine-property.test.ts (150 whole-engine runs, ~10 s, on a random seed) and
 * every integration test (HTTP servers, slow). The property test that stays (engine-index) replays
 * a fixed seed, so a mutant is killed or not the same way on every run.
 */
import { defineConfig } from "vitest/config";
import { shared } from "./vitest.config";

export const MUTATION_TESTS = [
  // contract/formulas.ts, withdraw-net.ts, deposit-coins.ts, exact.ts
  "tests/unit/contract.test.ts",
  "tests/unit/withdraw-net.test.ts",
  "tests/unit/charge.test.ts",
  // upstream/modules/money/*
  "tests/unit/addresses.test.ts",
  "tests/unit/money-service.test.ts",
  "tests/unit/money-deposits.test.ts",
  "tests/unit/money-withdrawals.test.ts",
  "tests/unit/money-check.test.ts",
  "tests/unit/money-check-findings.test.ts",
  "tests/unit/money-service-rules.test.ts",
  "tests/unit/money-deposit-rules.test.ts",
  "tests/unit/money-withdrawal-rules.test.ts",
  // upstream/modules/trading/{risk,pricing,book,orders,engine} and the engine's parts
  // (submit, commands, ticks, booking, holdings, transactions, queries, invariants)
  "tests/unit/engine-formulas.test.ts",
  "tests/unit/engine-book.test.ts",
  "tests/unit/engine-rules.test.ts",
  "tests/unit/engine-tick-group.test.ts",
  "tests/unit/engine-index.test.ts",
  "tests/unit/engine-booking-rules.test.ts",
  "tests/unit/engine-hot-path.test.ts",
  "tests/unit/engine-tick-rules.test.ts",
  "tests/unit/engine-store.test.ts",
];

export default defineConfig({
  resolve: shared.resolve,
  test: {
    ...shared.test,
    include: MUTATION_TESTS,
    env: { PROPERTY_SEED: "20260601" },
  },
});
