/** Account helpers of the profile specs: a mobile account made over the upstream API, signed in through the UI. */
import type { Page } from "@playwright/test";
import {
  expect,
  field,
  button,
  HOME,
  PASSWORD,
  UPSTREAM_URL,
  readSentCode,
  upstreamPost,
} from "./fixtures";
export { registerEmailByApi } from "./fixtures";
import { literal, upstream } from "./texts";

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

const post = upstreamPost;

/** A new mobile account (HK area, a random number) registered over the API and signed in through the phone tab. */
export async function newMobileUser(page: Page): Promise<string> {
  const res = await fetch(`${UPSTREAM_URL}/api/default/area_list`, { headers: { lang: "en" } });
  const areas = (
    (await res.json()) as Envelope<{ id: number; code: string; global_code: string }[]>
  ).data;
  const area = areas.find((a) => a.code === "HK") ?? areas[0];
  const number = `6${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  const sent = await post("/api/notify/send_sms", { to: number, area_id: area.id, type: 1 });
  expect(sent.code, sent.msg).toBe(1);
  const reg = await post("/api/user/register", {
    type: "mobile",
    area_id: area.id,
    mobile: number,
    password: PASSWORD,
    re_password: PASSWORD,
    sms_code: await readSentCode(`+${area.global_code.replace(/\D/g, "")}${number}`),
  });
  expect(reg.code, reg.msg).toBe(1);
  await page.goto("/login?type=mobile");
  await field(page, "auth:area_code").selectOption(String(area.id));
  await field(page, "auth:mobile").fill(number);
  await field(page, "auth:password").fill(PASSWORD);
  await button(page, "auth:login_submit").click();
  await expect(page).toHaveURL(HOME);
  return number;
}

/**
 * Presses the send-code button until the code goes out, as a person would: one code per address per
 * CODE_RESEND_S (5 s in e2e, playwright.config.ts), so a code asked for right after the sign-up
 * code is refused with the seconds left, and the person presses again until the button counts down
 * (the code was sent). Every wait the page gives is within that cool-down, and the whole is bounded.
 */
export async function sendCodeWhenAllowed(page: Page): Promise<void> {
  const resendS = 5;
  const countingDown = page.locator('button[value="send_code"]:disabled:not([data-countdown="0"])');
  // The wait in either plural form ("1 second", "4 seconds"), its number captured.
  const waitRe = new RegExp(
    ["one", "other"]
      .map((form) =>
        literal(
          upstream("en", "accounts", `accounts.code_wait_${form}`, { count: "SECONDS" }),
        ).source.replace("SECONDS", "(\\d+)"),
      )
      .join("|"),
  );
  const waitAlert = page.getByRole("alert").filter({ hasText: waitRe });
  // The form posts to the page's own route (its .data URL with JavaScript).
  const pathname = new URL(page.url()).pathname;
  const waitsGiven: number[] = [];
  await expect(async () => {
    // An earlier press's answer may have started the countdown after that attempt looked.
    if (await countingDown.count()) return;
    const answered = page.waitForResponse(
      (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith(pathname),
    );
    await button(page, "auth:send_code").click();
    await answered;
    await expect(countingDown.or(waitAlert)).toBeVisible();
    if (await countingDown.count()) return;
    const wait = waitRe.exec(await waitAlert.innerText());
    const seconds = Number(wait?.[1] ?? wait?.[2]);
    waitsGiven.push(seconds);
    throw new Error(`the send was refused with a wait of ${seconds} s; pressing again`);
  }).toPass({ intervals: [1_000], timeout: (resendS + 15) * 1000 });
  await expect(countingDown).toBeVisible();
  for (const seconds of waitsGiven) {
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(resendS);
  }
}
