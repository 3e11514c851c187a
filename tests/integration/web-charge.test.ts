/**
 * The deposit form's flow through the real server.ts and its embedded upstream: the multipart post
 * is read (CSRF, schema, size), the destination and bounds are checked before the image is stored,
 * the proof goes to image_upload and the deposit is declared with its name, once per form key.
 * Refusals answer 400 or 413 with the translated message and store nothing.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_MAX_BYTES } from "../../contract/constants";
import { DRAW_TYPE } from "../../contract/enums";
import { getEnv, postEnv } from "./upstream-harness";
import {
  cookieHeader,
  keepCookies,
  postPageForm,
  registerEmailOverApi,
  startWeb,
  type WebServer,
  showSeededDeposits,
} from "./web-harness";

let web: WebServer;
const OPERATOR = "web-charge-operator-token-0123456789";
const PASSWORD = "Secret-1234";
const FORM_TOO_LARGE = (
  JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/en/common.json"), "utf8")) as {
    form_too_large: string;
  }
).form_too_large;

beforeAll(async () => {
  web = await startWeb({ env: { OPERATOR_TOKEN: OPERATOR } });
  await showSeededDeposits(web, OPERATOR);
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

/** A new real account, registered at the embedded upstream and signed in on the web: its cookies. */
async function signedIn(tag: string): Promise<Map<string, string>> {
  const email = `charge-${tag}-${process.pid}-${Date.now()}@example.com`;
  await registerEmailOverApi(web, email, PASSWORD);
  const { res, jar } = await postPageForm(web.base, "/login", {
    intent: "login",
    login_type: "email",
    account: email,
    password: PASSWORD,
  });
  expect(res.status).toBe(302);
  return jar;
}

/** The deposit page's CSRF token and the form's idempotency key. */
async function formKeys(jar: Map<string, string>, query = "?type=0") {
  const res = await fetch(`${web.base}/mine/charge${query}`, {
    headers: { cookie: cookieHeader(jar) },
  });
  keepCookies(res, jar);
  expect(res.status).toBe(200);
  const html = await res.text();
  return {
    csrf: /name="csrf" value="([^"]+)"/.exec(html)![1],
    key: /name="idempotency_key" value="([^"]+)"/.exec(html)![1],
    chargeId: /name="charge_id" value="(\d+)"/.exec(html)?.[1],
    wireId: /name="wire_id" value="(\d+)"/.exec(html)?.[1],
  };
}

async function post(
  jar: Map<string, string>,
  fields: Record<string, string>,
  file: { bytes: Uint8Array; name: string; type: string } | null,
  url = "/mine/charge?type=0",
): Promise<{ status: number; text: string; location: string | null }> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  if (file)
    body.append("proof", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(web.base + url, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookieHeader(jar), origin: web.base },
    body,
  });
  keepCookies(res, jar);
  return { status: res.status, text: await res.text(), location: res.headers.get("location") };
}

const png = (shade: number) =>
  sharp({ create: { width: 10, height: 10, channels: 3, background: { r: shade, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/** Rows the embedded upstream holds (its database in the web's DATA_DIR). */
function count(table: "uploads" | "charges"): number {
  const db = new Database(path.join(web.dataDir, "upstream.sqlite"), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("deposit form (POST /mine/charge)", () => {
  it("declares a coin deposit with the uploaded proof, once per form key", async () => {
    const jar = await signedIn("coin");
    const f = await formKeys(jar);
    const before = count("charges");
    const fields = {
      csrf: f.csrf,
      intent: "coin",
      idempotency_key: f.key,
      charge_id: f.chargeId!,
      number: "120.50",
    };
    const first = await post(jar, fields, {
      bytes: await png(1),
      name: "a.png",
      type: "image/png",
    });
    expect(first.status).toBe(302);
    expect(first.location).toBe(`/mine/charge?type=0&charge_id=${f.chargeId}`);
    // The same form again (a retry): the same deposit, nothing more recorded.
    const again = await post(jar, fields, {
      bytes: await png(1),
      name: "a.png",
      type: "image/png",
    });
    expect(again.status).toBe(302);
    expect(count("charges")).toBe(before + 1);
    const page = await fetch(`${web.base}/mine/charge?type=0`, {
      headers: { cookie: cookieHeader(jar) },
    });
    const html = await page.text();
    expect(html.match(/data-testid="charge-row"/g)).toHaveLength(1);
    expect(html).toContain("Pending review");
  }, 60_000);

  it("answers the JavaScript post (/mine/charge/upload) as JSON: where to go, or the refusal", async () => {
    const jar = await signedIn("xhr");
    const f = await formKeys(jar, "?type=1");
    const fields = { csrf: f.csrf, intent: "bank", idempotency_key: f.key, wire_id: f.wireId! };
    const bad = await post(jar, { ...fields, number: "0" }, null, "/mine/charge/upload");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ refusedIntent: "bank" });
    // A wire below the deposit minimum is refused before its image is stored.
    const uploads = count("uploads");
    const low = await post(
      jar,
      { ...fields, number: "5" },
      { bytes: await png(4), name: "w.png", type: "image/png" },
      "/mine/charge/upload",
    );
    expect(low.status).toBe(400);
    expect(low.text).toContain("The minimum deposit is 10.00 USD");
    expect(count("uploads")).toBe(uploads);
    const ok = await post(
      jar,
      { ...fields, number: "300" },
      { bytes: await png(2), name: "w.png", type: "image/png" },
      "/mine/charge/upload",
    );
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toEqual({ location: `/mine/charge?type=1&wire_id=${f.wireId}` });
  }, 60_000);

  it("refuses without storing anything: out of bounds, no file, not an image, too large", async () => {
    const jar = await signedIn("bad");
    const f = await formKeys(jar);
    const fields = {
      csrf: f.csrf,
      intent: "coin",
      idempotency_key: f.key,
      charge_id: f.chargeId!,
      number: "5",
    };
    const uploads = count("uploads");
    const charges = count("charges");
    const image = { bytes: await png(3), name: "p.png", type: "image/png" };

    const low = await post(jar, fields, image);
    expect(low.status).toBe(400);
    expect(low.text).toContain("The minimum deposit is 10.00 USD");
    const high = await post(jar, { ...fields, number: "2000000" }, image);
    expect(high.status).toBe(400);
    expect(high.text).toContain("The maximum deposit is 1,000,000.00 USD");
    const none = await post(jar, { ...fields, number: "50" }, null);
    expect(none.status).toBe(400);
    expect(none.text).toContain("Please choose an image as proof of payment");
    const text = await post(
      jar,
      { ...fields, number: "50" },
      { bytes: Buffer.from("plain text\n".repeat(50)), name: "p.png", type: "image/png" },
    );
    expect(text.status).toBe(400);
    expect(text.text).toContain("Only JPEG, PNG or WebP images can be uploaded");
    // Over the upstream's limit but within what the web reads: the upstream's message, 413.
    const big = await post(
      jar,
      { ...fields, number: "50" },
      { bytes: new Uint8Array(UPLOAD_MAX_BYTES + 1024), name: "big.png", type: "image/png" },
    );
    expect(big.status).toBe(413);
    expect(big.text).toContain("The image is too large; the limit is 5 MB");
    const forged = await post(jar, { ...fields, csrf: "x", number: "50" }, image);
    expect(forged.status).toBe(403);

    // Beyond what the web reads at all: refused without reading the rest, and the connection is
    // closed so that the next request does not meet the unread bytes.
    const huge = await post(
      jar,
      { ...fields, number: "50" },
      { bytes: new Uint8Array(UPLOAD_MAX_BYTES + 512 * 1024), name: "huge.png", type: "image/png" },
    );
    expect(huge.status).toBe(413);
    expect(huge.text).toContain(FORM_TOO_LARGE);
    const after = await post(jar, { ...fields, csrf: "x", number: "50" }, image);
    expect(after.status).toBe(403);
    expect(count("uploads")).toBe(uploads);
    expect(count("charges")).toBe(charges);
  }, 60_000);

  it("with nothing to pay through, deposit and withdrawal screens say so (the spec's no-channel messages)", async () => {
    const jar = await signedIn("nochannel");
    const op = { authorization: `Bearer ${OPERATOR}` };
    const hideAll = async (list: string, update: (id: number) => string) => {
      const entries = await getEnv<{ id: number; type?: number }[]>(web.upstreamBase, list, {
        headers: op,
      });
      for (const e of entries.data)
        if (list !== "/admin/api/draw_currencies" || e.type === DRAW_TYPE.BANK)
          expect(
            (await postEnv(web.upstreamBase, update(e.id), { enabled: "0" }, { headers: op })).code,
          ).toBe(1);
    };
    const page = async (url: string) => {
      const res = await fetch(web.base + url, { headers: { cookie: cookieHeader(jar) } });
      expect(res.status).toBe(200);
      return res.text();
    };
    const en = (ns: string, key: string) =>
      (
        JSON.parse(
          fs.readFileSync(path.resolve(__dirname, `../../locales/en/${ns}.json`), "utf8"),
        ) as Record<string, string>
      )[key];

    expect(await page("/mine/charge?type=1")).not.toContain('data-testid="charge-no-wire"');
    await hideAll("/admin/api/wire_accounts", (id) => `/admin/api/wire_accounts/${id}`);
    const wire = await page("/mine/charge?type=1");
    expect(wire).toContain('data-testid="charge-no-wire"');
    expect(wire).toContain(en("charge", "no_pay_way"));

    await hideAll("/admin/api/charge_channels", (id) => `/admin/api/charge_channels/${id}`);
    expect(await page("/mine/charge?type=0")).toContain('data-testid="charge-no-channel"');

    expect(await page("/mine/withdraw?type=2")).not.toContain('data-testid="withdraw-no-channel"');
    await hideAll("/admin/api/draw_currencies", (id) => `/admin/api/draw_currencies/${id}`);
    const bank = await page("/mine/withdraw?type=2");
    expect(bank).toContain('data-testid="withdraw-no-channel"');
    expect(bank).toContain(en("withdraw", "no_channel"));
    // Coins are still offered.
    expect(await page("/mine/withdraw?type=1")).not.toContain('data-testid="withdraw-no-channel"');
  }, 60_000);
});
