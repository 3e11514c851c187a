/**
 * Debian's Chromium builds (no browser downloads here) and the flags every browser run of the
 * project uses: the Playwright tests, bench:js and bench:lighthouse.
 */
import { existsSync } from "node:fs";

/** Debian's full Chromium (package `chromium`): what the benchmarks measure. CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Debian's headless shell (package `chromium-headless-shell`), built from the same source. */
export const HEADLESS_SHELL_PATH = "/usr/bin/chromium-headless-shell";

/**
 * The Playwright tests' browser: the headless shell when it is installed, else the full Chromium.
 * The shell is the same engine (Blink, V8, the network stack) without the browser's windowing and
 * UI layers, and what Playwright itself runs headless tests on; a test run drives it with half the
 * CPU the full browser takes (tests/README.md). CHROMIUM_PATH overrides both.
 */
export const TEST_BROWSER_PATH =
  process.env.CHROMIUM_PATH ||
  (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
