/**
 * Debian's Chromium (no browser downloads here) and the flags every browser run of the project uses:
 * the Playwright tests, bench:js and bench:lighthouse. CHROMIUM_PATH overrides the binary.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
