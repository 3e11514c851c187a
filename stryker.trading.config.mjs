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
  ],
  htmlReporter: { fileName: "reports/mutation/trading.html" },
  jsonReporter: { fileName: "reports/mutation/trading.json" },
};

export default config;
