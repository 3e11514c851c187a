/**
 * Global setup of the vitest projects that start upstreams and web servers as processes: builds
 * this run's bundles of both (node-bundle.ts) and names their folder to the test processes.
 */
import fs from "node:fs";
import { buildNodeBundles, NODE_BUNDLE_VAR } from "./node-bundle.js";

let dir: string | null = null;

export async function setup(): Promise<void> {
  dir = await buildNodeBundles();
  process.env[NODE_BUNDLE_VAR] = dir;
}

export function teardown(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
