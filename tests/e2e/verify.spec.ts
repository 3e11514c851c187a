/**
 * Real-name verification, with JavaScript on and off: a new real account submits its name, id
 * number and two PNG images (previews with JavaScript) and sees it waiting; a non-image is refused
 * with 400 and its translated reason. An operator, in another browser, sees the request with both
 * images and rejects it with a remark; the user sees the remark and submits again; the operator
 * approves (a late decision from another console page is refused with 400 and its reason); the
 * user sees the account certified. A demo account gets the real-account message.
 */
import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import {
  test,
  expect,
  jsOn,
  newSignedInUser,
  remixBooted,
  secondDevice,
  demoByForm,
} from "./fixtures";
import { openConsole } from "./console";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

async function png(seed: number): Promise<Buffer> {
  return sharp({
    create: { width: 20, height: 14, channels: 3, background: { r: seed % 256, g: 120, b: 60 } },
  })
    .png()
    .toBuffer();
}

/** Fills and posts the verification form; answers the status of the post. */
async function submitVerification(
  page: Page,
  info: Parameters<typeof jsOn>[0],
  fields: { name: string; card: string; back?: Buffer },
): Promise<number> {
  // The form is a plain multipart post: after one, the page is a new document whose scripts run
  // again before the previews below can appear.
  if (jsOn(info)) await remixBooted(page);
  const form = page.getByTestId("verify-form");
  await form.getByLabel(EN("verify:name")).fill(fields.name);
  await form.getByLabel(EN("verify:card_id")).fill(fields.card);
  await form
    .getByLabel(EN("verify:front"))
    .setInputFiles({ name: "front.png", mimeType: "image/png", buffer: await png(10) });
  await form.getByLabel(EN("verify:back")).setInputFiles({
    name: "back.png",
    mimeType: "image/png",
    buffer: fields.back ?? (await png(20)),
  });
  if (jsOn(info)) {
    await expect(page.getByTestId("verify-preview-front")).toBeVisible();
    await expect(page.getByTestId("verify-preview-back")).toBeVisible();
  }
  const posted = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/mine/auth",
  );
  await form.getByRole("button", { name: EN("verify:submit") }).click();
  return (await posted).status();
}

/** The waiting request with this id number in the console queue (oldest first; a few pages at most). */
async function queueItem(page: Page, status: number, card: string): Promise<Locator> {
  for (let n = 1; n <= 10; n++) {
    await page.goto(`/operator/verifications?status=${status}&page=${n}`);
    const item = page.getByTestId("verification").filter({ hasText: card });
    if ((await item.count()) > 0) return item;
    if ((await page.locator('a[rel="next"]').count()) === 0) break;
  }
  throw new Error(`no verification request with ${card} in tab ${status}`);
}

test.describe("real-name verification", () => {
  test("submit, reject with a remark, submit again, approve: the user sees each state", async ({
    page,
    browser,
  }, info) => {
    test.setTimeout(90_000);
    await newSignedInUser(page, info);
    await page.goto("/mine/auth");
    await expect(
      page.getByRole("heading", { name: EN("verify:title"), exact: true }),
    ).toBeVisible();
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_none"));

    // A renamed non-image: 400 with its reason, nothing submitted.
    const card = `E2E${info.workerIndex}${Date.now().toString(36).toUpperCase()}`;
    const status = await submitVerification(page, info, {
      name: "Mei Ling Chan",
      card,
      back: Buffer.from("not an image at all"),
    });
    expect(status).toBe(400);
    await expect(page.getByRole("alert")).toContainText(EN("verify:errors.back_not_image"));
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_none"));

    expect(await submitVerification(page, info, { name: "Mei Ling Chan", card })).toBeLessThan(400);
    await expect(page).toHaveURL(/\/mine\/auth$/);
    await expect(page.getByText(upstream("en", "verify", "verify.submitted"))).toBeVisible();
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_waiting"));
    await expect(page.getByTestId("verify-name")).toHaveText("Mei Ling Chan");
    await expect(page.getByTestId("verify-card")).toHaveText(
      `${card.slice(0, 2)}${"*".repeat(card.length - 4)}${card.slice(-2)}`,
    );
    await expect(page.getByTestId("verify-form")).toHaveCount(0);

    const op = await secondDevice(browser, info);
    await openConsole(op.page);
    let item = await queueItem(op.page, 1, card);
    await expect(item.getByTestId("verification-name")).toHaveText("Mei Ling Chan");
    await expect(item.getByTestId("verification-card")).toHaveText(card);
    for (const side of ["front", "back"]) {
      const src = await item.getByTestId(`verification-${side}`).getAttribute("src");
      const img = await op.page.request.get(src!);
      expect(img.status()).toBe(200);
      expect(img.headers()["content-type"]).toBe("image/png");
    }
    // A rejection needs its remark; then the user sees it.
    const reject = item.getByTestId("reject-form");
    await reject.getByLabel(EN("operator:remark")).fill("The back photo is blurred");
    await reject.getByRole("button", { name: EN("verify:reject") }).click();
    await expect(op.page.getByText(/Verification #\d+ rejected/)).toBeVisible();

    await page.goto("/mine/auth");
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_rejected"));
    await expect(page.getByTestId("verify-remark")).toHaveText(
      EN("verify:remark", { remark: "The back photo is blurred" }),
    );
    expect(await submitVerification(page, info, { name: "Mei Ling Chan", card })).toBeLessThan(400);
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_waiting"));

    // Two console pages show the request; one approves it, the other's late rejection is refused
    // with 400 and the reason, above the list (the request has left the waiting tab).
    const stale = await queueItem(op.page, 1, card);
    const other = await op.context.newPage();
    item = await queueItem(other, 1, card);
    await item.getByRole("button", { name: EN("verify:approve") }).click();
    await expect(other.getByText(/Verification #\d+ approved/)).toBeVisible();
    await other.close();
    const late = stale.getByTestId("reject-form");
    await late.getByLabel(EN("operator:remark")).fill("Too late");
    const refused = op.page.waitForResponse(
      (r) => r.request().method() === "POST" && r.url().includes("/operator/verifications"),
    );
    await late.getByRole("button", { name: EN("verify:reject") }).click();
    expect((await refused).status()).toBe(400);
    await expect(op.page.getByRole("alert")).toContainText(
      upstream("en", "verify", "verify.already_decided"),
    );
    // The decided request shows in its tab with who decided; no forms any more.
    item = await queueItem(op.page, 2, card);
    await expect(item.getByTestId("approve-form")).toHaveCount(0);
    await op.done();

    await page.goto("/mine/auth");
    await expect(page.getByTestId("verify-status")).toHaveText(EN("verify:status_certified"));
    await expect(page.getByTestId("verify-form")).toHaveCount(0);
  });

  test("an image picked before the page's scripts ran has its preview once they run", async ({
    page,
  }, info) => {
    test.skip(!jsOn(info), "previews are drawn by JavaScript");
    await newSignedInUser(page, info);
    // A second tab of the same session whose scripts are held back, as on a slow network: the
    // form is usable from its HTML, and the person picks the front image before the scripts run.
    const slow = await page.context().newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await slow.route(/\/build\/.*\.js(\?.*)?$/, async (route) => {
      await held;
      await route.continue();
    });
    await slow.goto("/mine/auth", { waitUntil: "commit" });
    const front = slow.getByTestId("verify-form").getByLabel(EN("verify:front"));
    await front.setInputFiles({ name: "front.png", mimeType: "image/png", buffer: await png(30) });
    await expect(slow.getByTestId("verify-preview-front")).toHaveCount(0);
    release();
    await remixBooted(slow);
    await expect(slow.getByTestId("verify-preview-front")).toBeVisible();
    await expect(slow.getByTestId("verify-preview-back")).toHaveCount(0);
    await slow.close();
  });

  // Reads the page only; its markup is the same without JavaScript.
  test(
    "a demo account sees the real-account message instead of the form",
    { tag: "@same-without-js" },
    async ({ page }) => {
      await demoByForm(page);
      await page.goto("/mine/auth");
      await expect(page.getByTestId("verify-notice")).toHaveText(
        upstream("en", "common", "demo_only_true_account"),
      );
      await expect(page.getByTestId("verify-form")).toHaveCount(0);
    },
  );
});
