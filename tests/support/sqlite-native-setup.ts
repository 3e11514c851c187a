/**
 * Global setup of every vitest project: SQLite's native module is built before any test opens a
 * store (upstream/platform/store/sqlite-native.mjs), so that its first build, about half a
 * minute, is not spent inside one test's time limit. `npm test` has built it already; a run of `npx vitest`
 * straight after `npm install` builds it here.
 */
import { ensureSqliteNative } from "../../upstream/platform/store/sqlite-native.mjs";

export function setup(): void {
  ensureSqliteNative();
}
