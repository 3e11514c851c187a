/**
 * Deposit (/mine/charge), both JavaScript modes: a new real account deposits by coin with a real
 * PNG proof (multipart, with the preview and the live coin count when JavaScript is on) and sees it
 * under review in the history; an operator approves it through the operator API and the balance
 * shows it. A bank wire deposit shows the wire account's details, and once rejected its status
 * word and the operator's reason. A renamed non-image is refused with the upstream's message, 400,
 * and no deposit is recorded. A demo account gets the real-account message instead of the forms.
 */
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { COIN_DP, UPLOAD_MAX_BYTES } from "../../contract/constants";
import { formatBalance } from "../../app/utils/format";
import { test, expect, jsOn, newSignedInUser, demoByForm } from "./fixtures";
import { operatorPost } from "./operator";
import { web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** A small real PNG, made fresh (a proof can be used by one deposit only). */
async function png(seed: number): Promise<Buffer> {
  return sharp({
    create: { width: 16, height: 12, channels: 3, background: { r: seed % 256, g: 90, b: 160 } },
  })
    .png()
    .toBuffer();
}

/**
 * Submits the deposit form and answers the status of its post: with JavaScript the form goes by
 * XMLHttpRequest to /mine/charge/upload (for the progress bar), without it to the page itself.
 */
async function submit(
  page: Page,
  form: ReturnType<Page["getByTestId"]>,
  js: boolean,
): Promise<number> {
  const path = js ? "/mine/charge/upload" : "/mine/charge";
  const posted = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === path,
  );
  await form.getByRole("button", { name: EN("charge:submit") }).click();
  return (await posted).status();
}

test.describe("deposit", () => {
  test("a coin deposit with a PNG proof waits for review, and the approved amount is credited", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/charge");
    await expect(
      page.getByRole("heading", { name: EN("charge:title"), exact: true }),
    ).toBeVisible();
    await expect(page.getByTestId("charge-empty")).toBeVisible();

    // Another network: its own address and QR code (an inline SVG).
    await page.getByTestId("charge-channel").filter({ hasText: "BTC" }).click();
    await expect(page).toHaveURL(/type=0&charge_id=\d+/);
    await expect(page.getByTestId("charge-address")).toHaveText(
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    );
    await expect(page.getByTestId("charge-qr").locator("svg")).toBeVisible();

    const form = page.getByTestId("charge-form-coin");
    await form.getByLabel(EN("charge:amount")).fill("130");
    if (jsOn(info)) {
      // 130 USD at 65000 USD a coin, cut to COIN_DP places.
      await expect(page.getByTestId("charge-coins")).toHaveText((0.002).toFixed(COIN_DP));
      await expect(page.getByTestId("charge-copy")).toBeVisible();
    } else {
      await expect(page.getByTestId("charge-copy")).toHaveCount(0);
    }
    await form
      .getByLabel(EN("charge:proof"))
      .setInputFiles({ name: "proof.png", mimeType: "image/png", buffer: await png(1) });
    if (jsOn(info)) await expect(page.getByTestId("charge-preview")).toBeVisible();
    expect(await submit(page, form, jsOn(info))).toBeLessThan(400);
    await expect(
      page.getByText("Deposit submitted; it will be credited once reviewed"),
    ).toBeVisible();

    const row = page.getByTestId("charge-row");
    await expect(row).toHaveCount(1);
    await expect(row).toHaveAttribute("data-status", "0");
    await expect(row.getByTestId("charge-status")).toHaveText("Pending review");
    await expect(row).toContainText(`${formatBalance(130, "en")} USD · BTC`);

    const id = await row.getAttribute("data-charge-id");
    await operatorPost(`/charges/${id}/approve`);
    await page.goto("/user");
    await expect(page.getByTestId("user-balance")).toContainText(formatBalance(130, "en"));
    await page.goto("/mine/charge?type=0");
    await expect(page.getByTestId("charge-row")).toHaveAttribute("data-status", "1");
  });

  test("a bank wire deposit shows the wire account and is recorded under the bank tab", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/charge");
    await page.getByTestId("charge-tab-1").click();
    await expect(page).toHaveURL(/type=1/);
    const details = page.getByTestId("charge-wire-details");
    await expect(details).toContainText("First Harbour Bank");
    await expect(details).toContainText("FHBKSGSG");
    await expect(details).toContainText("0012-345678-901");

    const form = page.getByTestId("charge-form-bank");
    await form.getByLabel(EN("charge:amount")).fill("250.5");
    await form
      .getByLabel(EN("charge:proof"))
      .setInputFiles({ name: "wire.png", mimeType: "image/png", buffer: await png(2) });
    if (jsOn(info)) {
      // The upload is held until its progress bar has shown (and the button is disabled meanwhile).
      let release: () => void = () => undefined;
      const held = new Promise<void>((r) => (release = r));
      await page.route("**/mine/charge/upload", async (route) => {
        await held;
        await route.continue();
      });
      const posted = page.waitForResponse((r) => r.url().endsWith("/mine/charge/upload"));
      await form.getByRole("button", { name: EN("charge:submit") }).click();
      await expect(page.getByTestId("charge-progress")).toBeVisible();
      await expect(form.getByRole("button", { name: EN("charge:submit") })).toBeDisabled();
      release();
      expect((await posted).status()).toBe(200);
      // The route stays: it only lets requests through now, and removing it while the answer's
      // navigation is being intercepted can strand that navigation's data request.
      // The answer leads to the bank tab of the wire account used (a client-side navigation).
      await expect(page).toHaveURL(/type=1&wire_id=\d+/);
    } else {
      expect(await submit(page, form, false)).toBeLessThan(400);
    }
    const row = page.getByTestId("charge-row");
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(`${formatBalance(250.5, "en")} USD · USD`);
    await expect(row.getByTestId("charge-status")).toHaveText("Pending review");
    await expect(row.getByTestId("charge-remark")).toHaveCount(0);
    // An operator rejects it: the status word and the operator's reason.
    await operatorPost(`/charges/${await row.getAttribute("data-charge-id")}/reject`, {
      remark: "No transfer received",
    });
    await page.goto("/mine/charge?type=1");
    await expect(row.getByTestId("charge-status")).toHaveText("Rejected");
    await expect(row.getByTestId("charge-remark")).toHaveText(
      EN("charge:remark", { remark: "No transfer received" }),
    );
    // The coin tab's history does not list it.
    await page.getByTestId("charge-tab-0").click();
    await expect(page.getByTestId("charge-empty")).toBeVisible();
  });

  test("a renamed non-image is refused with the message and records nothing", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/charge?type=0");
    const form = page.getByTestId("charge-form-coin");
    await form.getByLabel(EN("charge:amount")).fill("50");
    await form.getByLabel(EN("charge:proof")).setInputFiles({
      name: "proof.png",
      mimeType: "image/png",
      buffer: Buffer.from("this is plain text, not a picture\n".repeat(20)),
    });
    expect(await submit(page, form, jsOn(info))).toBe(400);
    await expect(page.getByTestId("charge-form-coin").getByRole("alert")).toHaveText(
      "Only JPEG, PNG or WebP images can be uploaded",
    );
    // The amount is kept; nothing was recorded.
    await expect(page.getByTestId("charge-form-coin").getByLabel(EN("charge:amount"))).toHaveValue(
      "50",
    );
    await page.goto("/mine/charge?type=0");
    await expect(page.getByTestId("charge-empty")).toBeVisible();
  });

  test("a proof beyond what the form takes is refused as too large, with the message, and records nothing", async ({
    page,
  }, info) => {
    await newSignedInUser(page, info);
    await page.goto("/mine/charge?type=0");
    const form = page.getByTestId("charge-form-coin");
    await form.getByLabel(EN("charge:amount")).fill("50");
    // A quarter of a megabyte past the proof's limit, past the whole form's too (the proof and room
    // for the other fields): the web answers 413 from the body's declared length, before reading
    // it. The file goes to the browser over the DevTools protocol, which takes seconds for
    // megabytes on a busy machine: its bound is a hang's, not the 10 s of a click.
    await form.getByLabel(EN("charge:proof")).setInputFiles(
      {
        name: "proof.png",
        mimeType: "image/png",
        buffer: Buffer.concat([await png(7), Buffer.alloc(UPLOAD_MAX_BYTES + 256 * 1024)]),
      },
      { timeout: 60_000 },
    );
    expect(await submit(page, form, jsOn(info))).toBe(413);
    await expect(page.getByTestId("charge-form-coin").getByRole("alert")).toHaveText(
      EN("common:form_too_large"),
    );
    await page.goto("/mine/charge?type=0");
    await expect(page.getByTestId("charge-empty")).toBeVisible();
  });

  // Reads the page only: a demo account's deposit screen is its notice, without the parts that
  // differ without JavaScript (copy button, preview), so its markup is the same.
  test(
    "a demo account is told to use a real account",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      await page.goto("/mine/charge");
      await expect(page.getByTestId("charge-notice")).toHaveText(
        "Please register or log in to a real account",
      );
      await expect(page.getByTestId("charge-form-coin")).toHaveCount(0);
      await page.goto("/mine/charge?type=1");
      await expect(page.getByTestId("charge-notice")).toBeVisible();
    },
  );
});
