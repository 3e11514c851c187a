/** Removes the temporary data directory the end-to-end run's server used. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export default async function globalTeardown(): Promise<void> {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir || process.env.E2E_KEEP_DATA === "1") return;
  // Only ever remove the directory the config made under the system's temporary directory.
  const resolved = path.resolve(dir);
  if (!resolved.startsWith(path.join(os.tmpdir(), "tradepost-e2e-"))) return;
  fs.rmSync(resolved, { recursive: true, force: true });
}
