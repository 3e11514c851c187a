import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.js";
const BASE = "http://127.0.0.1:3710";
const pages = ["/", "/login", "/trade?code=EURUSD"];
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const POLICY = { name: "tp_policy_seen", value: Buffer.from(JSON.stringify("9999-12-31 23:59:59")).toString("base64"), domain: "127.0.0.1", path: "/" };
const lang = process.env.HYD_LANG ?? "en";
for (const p of pages) {
  const t: number[] = [];
  for (let i = 0; i < 7; i++) {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    await ctx.addCookies([POLICY, { name: "lng", value: lang, domain: "127.0.0.1", path: "/" }]);
    const page = await ctx.newPage();
    const cdp = await ctx.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const t0 = Date.now();
    await page.goto(BASE + p + (p.includes("?") ? "&" : "?") + "lng=" + lang, { waitUntil: "commit" });
    await page.waitForFunction(() => (window as any).__remixRouter?.state?.initialized === true && document.documentElement.dataset.hydrated !== "x", undefined, { timeout: 60000, polling: 20 });
    t.push(Date.now() - t0);
    await ctx.close();
  }
  t.sort((a, b) => a - b);
  console.log(p, "hydrated median", t[3], "ms", JSON.stringify(t));
}
await browser.close();
