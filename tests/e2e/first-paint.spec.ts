/**
 * A page asks for its scripts only after its first paint (root.tsx, ScriptsAfterFirstPaint;
 * decision 0011): on a phone's slow link the styles the first paint waits for do not share it with
 * the page's scripts. The page's style sheet is held back, which keeps the browser from painting:
 * the whole document arrives and not one script is asked for. Once the styles arrive the page
 * paints, then asks for its scripts and hydrates; without JavaScript it asks for none at all.
 */
import { test, expect, jsOn } from "./fixtures";

/** The build's scripts (the route modules, their chunks, the entry), not the page's inline ones. */
const BUILD_SCRIPT = /\/build\/.+\.js$/;
/** The app's style sheet, which every page's first paint waits for. */
const APP_STYLES = /\/build\/_assets\/app-[^/]+\.css$/;

for (const path of ["/trade?code=EURUSD", "/login"]) {
  test(`${path} asks for its scripts only once it has painted`, async ({ page }, info) => {
    const scripts: string[] = [];
    page.on("request", (r) => {
      if (BUILD_SCRIPT.test(new URL(r.url()).pathname)) scripts.push(r.url());
    });
    let release = () => {};
    const styles = new Promise<void>((r) => (release = r));
    // The route stays for the whole test: it only lets requests through once released.
    await page.route(APP_STYLES, async (route) => {
      await styles;
      await route.continue();
    });

    const target = new URL(path, "http://x").pathname;
    const received = page
      .waitForResponse(
        (r) => r.request().resourceType() === "document" && new URL(r.url()).pathname === target,
      )
      .then((r) => r.finished());
    const opened = page.goto(path);
    // The whole document has reached the browser, whose preload scanner reads ahead of a parser
    // that waits for the styles: it has seen every link in the page. Nothing is painted yet, and
    // not one script has been asked for.
    await received;
    expect(scripts).toEqual([]);

    release();
    await opened; // with JavaScript, `goto` also waits until Remix has booted (fixtures.ts)
    if (jsOn(info)) {
      expect(scripts.length).toBeGreaterThan(0);
      await expect(page.locator("html")).toHaveAttribute("data-lng", "en");
    } else {
      expect(scripts).toEqual([]);
    }
  });
}
