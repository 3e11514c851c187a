/**
 * Statements and own statistics, as a person uses them, with JavaScript on and off: a real account
 * credited by an operator and with one position opened and closed opens its statements (this month
 * by default), asks for the days around now with the range form and reads the statement
 * (opening balance, lines, closing balance, every ledger row and the closed position), switches
 * to last month with a preset link, has a backwards range refused in place, downloads both CSV
 * files (parsed back here: a BOM, the header, every row, the amounts adding up to the closing
 * balance), opens the printed page (A4, print styles, Arabic right to left), asks for the monthly
 * statement e-mail in the notification settings, and reads its own statistics; a demo account's
 * statistics are its own and its statement page says statements are a real account's.
 */
import type { Page } from "@playwright/test";
import {
  test,
  expect,
  jsOn,
  newSignedInUser,
  demoByForm,
  upstreamPost,
  PASSWORD,
  UPSTREAM_URL,
} from "./fixtures";
import { operatorAdjust } from "./operator";
import { upstream, web } from "./texts";

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** Cells of a CSV text (RFC 4180: quoted cells, doubled quotes, CRLF lines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Exact micro-USD of a CSV amount ("-12.345600"). */
const micro = (text: string) => {
  expect(text).toMatch(/^-?\d+\.\d{6}$/);
  const [w, f] = text.replace("-", "").split(".");
  return (text.startsWith("-") ? -1 : 1) * (Number(w) * 1e6 + Number(f));
};

/** A figure as the statement shows it in English ("+250.25", "1,234.567891") in micro-USD. */
const shown = (text: string) =>
  Math.round(Number(text.replace(/[,+\s]/g, "").replace("−", "-")) * 1e6);

/** A signed-in real account with 250.25 USD booked by an operator and one position closed. */
async function accountWithHistory(page: Page, info: Parameters<typeof newSignedInUser>[1]) {
  const email = await newSignedInUser(page, info);
  const login = await upstreamPost<{ token: string; user: { uid: string } }>(
    "/api/user/loginForU",
    { account: email, password: PASSWORD, login_type: "email" },
  );
  expect(login.code, login.msg).toBe(1);
  await operatorAdjust(login.data.user.uid, "250.50", "Statement e2e credit");
  await operatorAdjust(login.data.user.uid, "-0.25", "Statement e2e correction");
  const api = async (path: string, body: Record<string, string | number>) => {
    const res = await fetch(`${UPSTREAM_URL}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: login.data.token,
        lang: "en",
      },
      body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
    });
    return (await res.json()) as { code: number; msg: string; data: { Id: number } };
  };
  const list = (await (await fetch(`${UPSTREAM_URL}/v1/api/forex/trade_list`)).json()) as {
    data: { Id: number; Code: string; HasForexMultiple: { Value: number }[] }[];
  };
  const eur = list.data.find((i) => i.Code === "EURUSD")!;
  const o = await api("/v1/api/forex/submit", {
    type: 1,
    cont: "0.01",
    forex_id: eur.Id,
    status: 1,
    multiple: eur.HasForexMultiple[0].Value,
  });
  expect(o.code, o.msg).toBe(1);
  const c = await api("/v1/api/forex/close", { id: o.data.Id });
  expect(c.code, c.msg).toBe(1);
  return { email };
}

test("a statement: the figures and rows of the days around now, a refused range, the CSV files parsed back and the printed page", async ({
  page,
}, info) => {
  test.setTimeout(60_000);
  await accountWithHistory(page, info);
  await page.goto("/user");
  await page.getByRole("link", { name: EN("common:user.entry.statements") }).click();
  await expect(page).toHaveURL(/\/mine\/statements$/);
  await expect(page.getByTestId("preset-this_month")).toHaveAttribute("aria-current", "true");
  // The days around now (UTC), typed into the range form: whatever the day of the run, the
  // history just booked is inside and nothing before it.
  const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  await page.getByLabel(EN("statements:from")).fill(dayOf(Date.now() - 86_400_000));
  await page.getByLabel(EN("statements:to")).fill(dayOf(Date.now() + 86_400_000));
  await page.getByRole("button", { name: EN("statements:show") }).click();
  await expect(page).toHaveURL(/\/mine\/statements\?from=\d{4}-\d{2}-\d{2}&to=/);
  await expect(page.getByTestId("statement-position")).toHaveCount(1);

  const summary = page.getByTestId("statement-summary");
  const line = async (name: string) => shown(await summary.getByTestId(`line-${name}`).innerText());
  expect(await line("opening")).toBe(0);
  expect(await line("adjustments")).toBe(250_250_000);
  expect(await line("deposits")).toBe(0);
  expect(await line("fees")).toBeLessThan(0);
  const lines = ["deposits", "withdrawals", "realised_profit", "fees", "adjustments", "copy_moves"];
  let sum = await line("opening");
  for (const l of lines) sum += await line(l);
  expect(await line("closing")).toBe(sum);
  await expect(page.getByTestId("statement-position")).toHaveCount(1);
  const rows = page.getByTestId("statement-row");
  expect(await rows.count()).toBeGreaterThanOrEqual(3);
  await expect(rows.first()).toHaveAttribute("data-line", "adjustments");

  // The CSV downloads: every row, amounts adding up to the closing balance.
  const href = (await page.getByTestId("csv-ledger").getAttribute("href"))!;
  const csv = await page.request.get(href);
  expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(csv.headers()["content-disposition"]).toMatch(
    /^attachment; filename="tradepost-ledger-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const bytes = await csv.body();
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const table = parseCsv(bytes.toString("utf8").slice(1));
  expect(table[0]).toEqual(
    ["id", "time", "kind", "description", "line", "amount", "balance"].map((c) =>
      EN(`statements:csv.${c}`),
    ),
  );
  const body = table.slice(1);
  expect(body).toHaveLength(await rows.count());
  expect(body.reduce((a, r) => a + micro(r[5]), 0)).toBe(await line("closing"));
  expect(micro(body[body.length - 1][6])).toBe(await line("closing"));
  const positions = parseCsv(
    (await (await page.request.get(href.replace("ledger.csv", "positions.csv"))).text()).slice(1),
  );
  expect(positions).toHaveLength(2);
  expect(positions[1][1]).toBe("EUR/USD");
  expect(micro(positions[1][11])).toBe(micro(positions[1][10]) - micro(positions[1][9]));
  const download = page.waitForEvent("download");
  await page.getByTestId("csv-positions").click();
  expect((await download).suggestedFilename()).toMatch(/^tradepost-positions-.*\.csv$/);

  // The printed page: every row, A4 print styles that hide the controls.
  await page.getByTestId("print-link").click();
  await expect(page).toHaveURL(/\/mine\/statements\/print\?from=/);
  await expect(page.getByRole("heading", { name: EN("statements:print_title") })).toBeVisible();
  await expect(page.getByTestId("print-rows").locator("tbody tr")).toHaveCount(body.length);
  await expect(page.getByTestId("print-positions").locator("tbody tr")).toHaveCount(1);
  if (jsOn(info))
    await expect(page.getByRole("button", { name: EN("statements:print_now") })).toBeVisible();
  else await expect(page.getByText(EN("statements:print_hint"))).toBeVisible();
  await page.emulateMedia({ media: "print" });
  await expect(page.locator(".stmt-print-actions")).toBeHidden();
  await page.emulateMedia({ media: "screen" });
  await page.goto(`${page.url()}&lng=ar`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(
    page.getByRole("heading", { name: web("ar", "statements:print_title") }),
  ).toBeVisible();
  await page.goto("/mine/statements?lng=en");

  // A preset link, then a backwards range refused in place (HTTP 400), nothing read.
  await page.getByTestId("preset-last_month").click();
  await expect(page).toHaveURL(/preset=last_month$/);
  await expect(page.getByTestId("preset-last_month")).toHaveAttribute("aria-current", "true");
  await expect(summary.getByTestId("line-closing")).toHaveText("0.00");
  await page.getByLabel(EN("statements:from")).fill("2026-02-10");
  await page.getByLabel(EN("statements:to")).fill("2026-02-01");
  const answer = page.waitForResponse((r) => r.url().includes("from=2026-02-10"));
  await page.getByRole("button", { name: EN("statements:show") }).click();
  expect((await answer).status()).toBe(400);
  await expect(page.locator('[data-error-for="to"]')).toHaveText(EN("statements:range_order"));
  await expect(page.getByTestId("statement-summary")).toHaveCount(0);
});

test("the monthly statement e-mail is asked for in the notification settings and kept", async ({
  page,
}, info) => {
  await newSignedInUser(page, info);
  await page.goto("/mine/notifications/settings");
  const monthly = page.getByLabel(EN("statements:mail_monthly"));
  await expect(monthly).not.toBeChecked();
  await monthly.check();
  await page.getByRole("button", { name: EN("statements:mail_save") }).click();
  // The channels' own form keeps its name (two forms, two buttons).
  await expect(page.getByRole("button", { name: EN("notify:save"), exact: true })).toHaveCount(1);
  await expect(page.locator('[data-toast="success"]')).toContainText(
    upstream("en", "statements", "statements.mail_on"),
  );
  await page.reload();
  await expect(monthly).toBeChecked();
});

test("own statistics: the real account's closed position, the monthly bars with their table", async ({
  page,
}, info) => {
  await accountWithHistory(page, info);
  await page.goto("/user");
  await page.getByRole("link", { name: EN("common:user.entry.stats") }).click();
  await expect(page).toHaveURL(/\/mine\/stats$/);
  await expect(page.getByTestId("stats-account")).toHaveText(EN("stats:account_real"));
  await expect(page.getByTestId("stat-trades")).toHaveText("1");
  await expect(page.getByTestId("stats-bars")).toBeVisible();
  await expect(page.getByTestId("stats-bars").locator("rect")).toHaveCount(12);
  await expect(page.getByTestId("stats-months").locator("tbody tr")).toHaveCount(12);
  await expect(page.getByTestId("stats-instruments").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("stats-instruments")).toContainText("EUR/USD");
});

test("a demo account's statistics are its own, and its statement page says statements are a real account's", async ({
  page,
}) => {
  await demoByForm(page);
  await page.goto("/mine/stats");
  await expect(page.getByTestId("stats-account")).toHaveText(EN("stats:account_demo"));
  await expect(page.getByTestId("stats-empty")).toBeVisible();
  await page.goto("/mine/statements");
  await expect(page.getByTestId("statement-notice")).toHaveText(
    upstream("en", "common", "demo_only_true_account"),
  );
});
