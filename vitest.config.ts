import { defineConfig } from "vitest/config";
import path from "node:path";

/**
 * Two projects with the same aliases and time limits:
 * - unit: pure modules and in-memory stores. Its files share one module cache per worker
 *   (isolate off): each file makes its own databases, engines and fake clocks and restores what it
 *   changes, so a fresh process per file would only repeat the imports (38 s → 24 s).
 * - integration: each file starts real servers (upstream, web) as child processes and mostly waits
 *   on them, so four files run at once on a 2-core machine (131 s → 75 s), one process each.
 */
export const shared = {
  resolve: {
    alias: {
      "~": path.resolve(__dirname, "app"),
      "@contract": path.resolve(__dirname, "contract"),
    },
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
} as const;

export default defineConfig({
  resolve: shared.resolve,
  test: {
    ...shared.test,
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], isolate: false },
      },
      {
        extends: true,
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"] },
      },
    ],
  },
});
