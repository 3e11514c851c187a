/**
 * Runs once after Playwright has started the web server (webServer in playwright.config.ts): checks
 * that Chromium is where the config points and that the embedded upstream answers on its fixed port,
 * so that a broken environment fails with one clear message instead of every test timing out.
 */
import fs from "node:fs";

export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync("/usr/bin/chromium")) {
    throw new Error(
      "Debian's Chromium is missing at /usr/bin/chromium. Run `bash scripts/ensure-chromium.sh` " +
        "(as root it installs it) or `sudo apt-get install -y chromium`.",
    );
  }
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it).");
  const deadline = Date.now() + 60_000;
  let lastError = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(
        `${upstream}/dev/outbox?to=${encodeURIComponent("nobody@example.test")}`,
      );
      const body = (await res.json()) as { code?: unknown };
      if (typeof body.code === "number") return;
      lastError = `unexpected body ${JSON.stringify(body).slice(0, 200)}`;
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `The embedded upstream does not answer at ${upstream}/dev/outbox (${lastError}). The web server ` +
      "must start it with UPSTREAM_PORT and DEV_OUTBOX=1 from its environment.",
  );
}
