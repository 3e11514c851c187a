/**
 * The Content-Security-Policy allows no inline style and no inline script without the response's
 * nonce, and no screen breaks it.
 *
 * Every test's page is watched for the browser's reports of a violation (`watch` in fixtures.ts):
 * a screen that breaks the policy fails whichever test opens it, with JavaScript on (hydration,
 * the live chart, the order form and its pop-up) and off, and in every state the test drives it
 * to. The screens are all opened by a11y.spec.ts (every screen, signed out, as a demo and a real
 * account, and the console) and by the specs of each area. What is left here is the header itself,
 * and the deposit screens in the states only an upload reaches (the QR code's SVG, the proof's
 * preview).
 */
import sharp from "sharp";
import { test, expect, jsOn, newSignedInUser } from "./fixtures";
import { web } from "./texts";

test.describe("content security policy", () => {
  test("forbids inline styles and un-nonced scripts", async ({ request }, info) => {
    test.skip(!jsOn(info), "a header: the same for every browser");
    const res = await request.get("/");
    const csp = res.headers()["content-security-policy"] ?? "";
    const style = /style-src ([^;]*)/.exec(csp)?.[1] ?? "";
    const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
    expect(style).toContain("'self'");
    expect(style).not.toContain("unsafe-inline");
    expect(script).toMatch(/'nonce-[^']+'/);
    expect(script).not.toContain("unsafe-inline");
  });

  test("a real account's deposit screens break it neither (QR code SVG, proof preview)", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/charge?type=0");
    await expect(page.getByTestId("charge-qr").locator("svg")).toBeVisible();
    const proof = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 20, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    await page
      .getByTestId("charge-form-coin")
      .getByLabel(web("en", "charge:proof"))
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: proof });
    if (jsOn(info)) await expect(page.getByTestId("charge-preview")).toBeVisible();
    await page.goto("/mine/charge?type=1");
    await expect(page.getByTestId("charge-wire-details")).toBeVisible();
    await page.waitForLoadState("load");
  });
});
