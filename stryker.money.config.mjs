// @ts-check
/**
 * First half of `npm run mutation` (see stryker.config.mjs): the contract's formulas and the money
 * module. Reports: reports/mutation/money.html and money.json.
 */
import base, { MONEY_FILES } from "./stryker.config.mjs";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  ...base,
  mutate: MONEY_FILES,
  htmlReporter: { fileName: "reports/mutation/money.html" },
  jsonReporter: { fileName: "reports/mutation/money.json" },
};

export default config;
