/**
 * Online support (/mine/chat) with each support-link setting. service_link and its type are read
 * by every visitor (and the CSP's frame-src of every page follows them), so this file runs in its
 * own projects after all the others (playwright.config.ts). It changes the settings through the
 * operator API, as an operator would, and restores them afterwards. It signs in with demo accounts
 * (any account may open the support chat), which the sign-up captcha of the other file here does
 * not touch.
 */
import { operatorSetting } from "./operator";
import { test, expect, demoByForm, UPSTREAM_URL } from "./fixtures";
import { web } from "./texts";

const EN = (key: string) => web("en", key);
/** A page of another origin the browser can load here: the upstream's public settings. */
const FRAMED = `${UPSTREAM_URL}/api/basicSet/getBasicInfo`;
const FRAMED_ORIGIN = new URL(FRAMED).origin;

async function basicInfo(): Promise<{ service_link: string; service_link_type: number }> {
  const res = await fetch(`${UPSTREAM_URL}/api/basicSet/getBasicInfo`);
  return ((await res.json()) as { data: { service_link: string; service_link_type: number } }).data;
}

/** The frame-src directive of a page's Content-Security-Policy. */
async function frameSrc(baseURL: string, path = "/mine/chat"): Promise<string> {
  const res = await fetch(`${baseURL}${path}`, { redirect: "manual" });
  const csp = res.headers.get("content-security-policy") ?? "";
  return /frame-src ([^;]*)/.exec(csp)?.[1] ?? "";
}

let before: { service_link: string; service_link_type: number };

test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  before = await basicInfo();
});
test.afterAll(async () => {
  await operatorSetting("service_link", before.service_link);
  await operatorSetting("service_link_type", String(before.service_link_type));
});

test("frame mode embeds the link in a titled frame, with a link to a new tab; frame-src allows its origin", async ({
  page,
  baseURL,
}) => {
  await operatorSetting("service_link", FRAMED);
  await operatorSetting("service_link_type", "1");
  // The web reads the setting through a short cache (CHAT_FRAME_CACHE_MS): the header follows.
  await expect.poll(() => frameSrc(baseURL!), { timeout: 15_000 }).toBe(FRAMED_ORIGIN);
  // Every page carries it (a client-side navigation to /mine/chat keeps the first page's policy).
  expect(await frameSrc(baseURL!, "/login")).toBe(FRAMED_ORIGIN);

  const refused: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|frame-src/i.test(m.text())) refused.push(m.text());
  });
  await demoByForm(page);
  await page.goto("/mine/chat");
  await expect(page.getByRole("heading", { name: EN("account:chat.title") })).toBeVisible();
  const frame = page.getByTestId("chat-frame");
  await expect(frame).toHaveAttribute("src", FRAMED);
  await expect(frame).toHaveAttribute("title", EN("account:chat.frame_title"));
  await expect(page.frameLocator('[data-testid="chat-frame"]').locator("body")).toContainText(
    "service_link",
  );
  const link = page.getByRole("link", { name: EN("account:chat.open") });
  await expect(link).toHaveAttribute("href", FRAMED);
  await expect(link).toHaveAttribute("target", "_blank");
  expect(refused).toEqual([]);
});

test("link mode shows only a link that opens the chat; frame-src is back to 'none'", async ({
  page,
  baseURL,
}) => {
  await operatorSetting("service_link", FRAMED);
  await operatorSetting("service_link_type", "2");
  await expect.poll(() => frameSrc(baseURL!), { timeout: 15_000 }).toBe("'none'");
  await demoByForm(page);
  await page.goto("/mine/chat");
  await expect(page.getByTestId("chat-frame")).toHaveCount(0);
  await expect(page.getByRole("link", { name: EN("account:chat.open") })).toHaveAttribute(
    "href",
    FRAMED,
  );
});

test("no link configured: support is not available", async ({ page, baseURL }) => {
  await operatorSetting("service_link", "");
  await operatorSetting("service_link_type", "1");
  await expect.poll(() => frameSrc(baseURL!), { timeout: 15_000 }).toBe("'none'");
  await demoByForm(page);
  await page.goto("/mine/chat");
  await expect(page.getByTestId("chat-unavailable")).toHaveText(EN("account:chat.unavailable"));
  await expect(page.getByTestId("chat-frame")).toHaveCount(0);
  await expect(page.getByRole("link", { name: EN("account:chat.open") })).toHaveCount(0);
});
