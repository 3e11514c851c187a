/**
 * Operator roles in the console, with JavaScript on and off: a viewer (made by
 * `npm run operator -- add NAME --role viewer`) reads the queues, users and settings with no form to
 * act on them; a decision forged with the viewer's own session and CSRF token is answered 403 with
 * the upstream's translated refusal and changes nothing; given the finance role, the operator signs
 * in again and decides the deposit.
 */
import { test, expect, newSignedInUser } from "./fixtures";
import {
  EN,
  balanceOf,
  depositAs,
  fillOperatorLogin,
  newOperator,
  nextTotp,
  openQueueItem,
  totp,
  userSession,
  verificationAs,
} from "./console";
import { setOperatorAccountRole } from "./operator";
import { upstream } from "./texts";

test("a viewer reads without forms, a forged decision gets 403; as finance the same operator decides", async ({
  page,
}, info) => {
  const email = await newSignedInUser(page, info);
  const user = await userSession(email);
  const depositId = await depositAs(user.token, "75");
  const card = `V${info.project.name.replace(/\W/g, "")}${Date.now().toString(36)}`.toUpperCase();
  await verificationAs(user.token, card);

  const op = newOperator(info, "view", "viewer");
  await page.goto("/operator/login");
  await fillOperatorLogin(page, op, await totp(op));
  await expect(page.getByTestId("operator-role")).toHaveAttribute("data-role", "viewer");
  await expect(page.getByTestId("operator-role")).toHaveText(EN("operator:role_viewer"));

  const item = await openQueueItem(page, "/operator?status=0", "charge", depositId);
  await expect(item.getByTestId("charge-amount")).toContainText("75.00");
  await expect(item.locator("form")).toHaveCount(0);
  await page.goto("/operator/settings");
  await expect(page.getByTestId("setting").first()).toBeVisible();
  await expect(page.getByTestId("settings").locator("form")).toHaveCount(0);
  await page.goto(`/operator/users?uid=${user.uid}`);
  await expect(page.getByTestId("user-ledger")).toBeVisible();
  await expect(page.getByTestId("adjust-form")).toHaveCount(0);
  await page.goto("/operator/channels");
  await expect(page.getByTestId("channel-add")).toHaveCount(0);
  // A verification request: the viewer reads it without the pictures of the ID.
  const request = page.getByTestId("verification").filter({ hasText: card });
  for (let n = 1; n <= 10 && (await request.count()) === 0; n++)
    await page.goto(`/operator/verifications?page=${n}`);
  await expect(request.getByTestId("verification-pics-hidden")).toHaveText(
    EN("verify:pics_for_support"),
  );
  await expect(request.locator("img")).toHaveCount(0);

  // The viewer's own session and CSRF token (from the sign-out form), posting what the queue's
  // approve form would.
  const csrf = await page
    .locator('form[action="/operator/logout"] input[name="csrf"]')
    .inputValue();
  const forged = await page.request.post("/operator?index&status=0", {
    form: { csrf, intent: "approve", id: String(depositId), amount: "" },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect(await forged.text()).toContain(upstream("en", "operators", "operator_forbidden"));
  expect((await balanceOf(user.token)).balance).toBe(0);

  // A new role ends the session; signed in again, the operator decides.
  setOperatorAccountRole(op.name, "finance");
  await page.goto("/operator");
  await expect(page).toHaveURL(/\/operator\/login$/);
  // The code just used is not accepted again: the authenticator's next one is.
  await fillOperatorLogin(page, op, await nextTotp(op));
  await expect(page.getByTestId("operator-role")).toHaveAttribute("data-role", "finance");
  const again = await openQueueItem(page, "/operator?status=0", "charge", depositId);
  await again.getByTestId("approve-form").getByRole("button").click();
  await expect(
    page.getByText(EN("operator:charge_done_approve", { id: depositId }), { exact: true }).first(),
  ).toBeVisible();
  expect((await balanceOf(user.token)).balance).toBe(75);
});
