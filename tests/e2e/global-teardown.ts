/** Removes the run's bundles (global-setup.ts) and the temporary data directory its server used. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NODE_BUNDLE_VAR } from "../support/node-bundle";

export default async function globalTeardown(): Promise<void> {
  const bundle = process.env[NODE_BUNDLE_VAR];
  if (bundle) fs.rmSync(bundle, { recursive: true, force: true });
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA === "1") return;
  // Only ever remove the directory the config made under the system's temporary directory.
  const resolved = path.resolve(dir);
  if (!resolved.startsWith(path.join(os.tmpdir(), "tradepost-e2e-"))) return;
  fs.rmSync(resolved, { recursive: true, force: true });
}
