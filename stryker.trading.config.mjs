// @ts-check
/**
 * Second half of `npm run mutation` (see stryker.config.mjs): the order engine's rules. Reports:
 * reports/mutation/trading.html and trading.json.
 */
import base from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  ...base,
  mutate: [
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
  ],
  htmlReporter: { fileName: "reports/mutation/trading.html" },
  jsonReporter: { fileName: "reports/mutation/trading.json" },
};

export default config;
