/**
 * npm run conformance -- URL: checks a back end against the contract (conformance/kit.ts) and prints
 * one line per check, the fields seen that the contract does not declare, and a summary; exits 1
 * when a check failed, 2 on bad usage.
 *
 * Environment (all optional): CONFORMANCE_ACCOUNT and CONFORMANCE_PASSWORD (a real account for the
 * money checks; without them the kit signs one up, which needs the development outbox),
 * CONFORMANCE_OPERATOR_TOKEN (an operator's token: the deposit is approved through the console's
 * API, which funds the account for the withdrawal check).
 */
import { runConformance, type CheckResult } from "./kit.js";

const MARK: Record<CheckResult["outcome"], string> = { pass: "ok  ", fail: "FAIL", skip: "skip" };

async function main(): Promise<number> {
  const base = process.argv[2];
  if (!base || !/^https?:\/\/\S+$/.test(base)) {
    console.error("usage: npm run conformance -- http://HOST:PORT  (the back end's base URL)");
    return 2;
  }
  console.log(`conformance of ${base} with the contract`);
  const report = await runConformance({
    base,
    account: process.env.CONFORMANCE_ACCOUNT || undefined,
    password: process.env.CONFORMANCE_PASSWORD || undefined,
    operatorToken: process.env.CONFORMANCE_OPERATOR_TOKEN || undefined,
    onCheck: (c) => console.log(`${MARK[c.outcome]}  ${c.name}${c.detail ? `: ${c.detail}` : ""}`),
  });
  for (const n of report.notes) console.log(`note  ${n}`);
  const count = (o: CheckResult["outcome"]) => report.checks.filter((c) => c.outcome === o).length;
  console.log(
    `${report.passed ? "PASSED" : "FAILED"}: ${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped`,
  );
  return report.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  },
);
