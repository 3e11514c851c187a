// @ts-check
/** What the first half mutates: the contract's formulas and the money module (but its HTTP layer). */
export const MONEY_FILES = [
  "contract/formulas.ts",
  "contract/withdraw-net.ts",
  "contract/deposit-coins.ts",
  "contract/exact.ts",
  "upstream/modules/money/*.ts",
  "!upstream/modules/money/routes.ts",
];

/** What the second half mutates: the order engine's rules. */
export const TRADING_FILES = [
  "upstream/modules/trading/risk.ts",
  "upstream/modules/trading/pricing.ts",
  "upstream/modules/trading/book.ts",
  "upstream/modules/trading/orders.ts",
  "upstream/modules/trading/engine.ts",
  "upstream/modules/trading/submit.ts",
  "upstream/modules/trading/commands.ts",
  "upstream/modules/trading/ticks.ts",
  "upstream/modules/trading/booking.ts",
  "upstream/modules/trading/holdings.ts",
  "upstream/modules/trading/transactions.ts",
  "upstream/modules/trading/queries.ts",
  "upstream/modules/trading/invariants.ts",
];

/**
 * Mutation testing (StrykerJS) of the money rules: the contract's formulas, the money module (but
 * its HTTP layer) and the order engine's rules. Not part of `npm test`.
 *
 * `npm run mutation` runs it in two halves, one after the other (stryker.money.config.mjs, then
 * stryker.trading.config.mjs), each well under 40 minutes on one core; `npx stryker run` runs this
 * file: everything in one run. The tests it runs are those of vitest.mutation.config.ts. Reports go
 * to reports/mutation/ (HTML and JSON). The machine is shared: one test runner at a time.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  concurrency: 1,
  mutate: [...MONEY_FILES, ...TRADING_FILES],
  // Not needed by the tests (and test-results/ is written to while Playwright runs).
  ignorePatterns: [
    "/test-results",
    "/playwright-report",
    "/build",
    "/public/build",
    "/.cache",
    "/data",
    "/docs",
  ],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/mutation.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: ".stryker-tmp",
  timeoutMS: 20000,
};

export default config;
