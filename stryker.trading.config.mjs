// @ts-check
/**
 * Second half of `npm run mutation` (see stryker.config.mjs): the order engine's rules. Reports:
 * reports/mutation/trading.html and trading.json.
 */
import base, { TRADING_FILES } from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  ...base,
  mutate: TRADING_FILES,
  htmlReporter: { fileName: "reports/mutation/trading.html" },
  jsonReporter: { fileName: "reports/mutation/trading.json" },
};

export default config;
