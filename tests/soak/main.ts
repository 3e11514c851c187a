/**
 * npm run soak: the crash soak of tests/soak/soak.ts with its summary table; exits 1 on any breach.
 * SOAK_KILLS (default 20), SOAK_SEED (default random; printed for a replay), SOAK_CLIENTS (default 4).
 * SOAK_DATABASE_URL runs the upstream on PostgreSQL, in that database (an empty one, made for the
 * soak: it fills it with demo accounts), with OPERATOR_SECRET_KEY or a key made for the run.
 */
import crypto from "node:crypto";
import { formatSoak, runSoak } from "./soak.js";

function intVar(name: string, dflt: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(
      `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`,
    );
    process.exit(2);
  }
  return n;
}

// Ctrl-C: end through process.exit, so that the upstream child is killed with the soak.
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => process.exit(130));

const seed = intVar("SOAK_SEED", Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1);
const kills = intVar("SOAK_KILLS", 20, 1, 1000);
const clients = intVar("SOAK_CLIENTS", 4, 1, 32);
console.log(`soak seed ${seed} (replay: SOAK_SEED=${seed} npm run soak)`);
const databaseUrl = process.env.SOAK_DATABASE_URL;
const result = await runSoak({
  seed,
  kills,
  clients,
  maxRunMs: 1500,
  log: (l) => console.log(l),
  postgres: databaseUrl
    ? {
        databaseUrl,
        operatorSecretKey:
          process.env.OPERATOR_SECRET_KEY || crypto.randomBytes(32).toString("hex"),
      }
    : undefined,
});
console.log("\n" + formatSoak(result));
console.log(`\nsoak seed ${seed}: ${result.breaches.length ? "BREACHED" : "all invariants held"}`);
process.exit(result.breaches.length ? 1 : 0);
