/**
 * The verification form's flow through the real server.ts and its embedded upstream: the multipart
 * post is read (CSRF, schema, size), the state, both sizes and both files' first bytes are checked
 * before an image is stored, each image goes to image_upload and user_real/real_name is called with
 * their names. Refusals answer 400, 403 or 413 with the translated message and store nothing.
 */
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UPLOAD_MAX_BYTES } from "../../contract/constants";
import { postEnv } from "./upstream-harness";
import { cookieHeader, keepCookies, startWeb, type WebServer } from "./web-harness";
import { waitForCode } from "../support/message-sink";

let web: WebServer;
const PASSWORD = "Secret-1234";
const en = (ns: string, key: string): string =>
  key
    .split(".")
    .reduce<any>(
      (o, k) => o[k],
      JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../locales/en/${ns}.json`), "utf8")),
    );

beforeAll(async () => {
  web = await startWeb();
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

async function signedIn(tag: string): Promise<Map<string, string>> {
  const email = `verify-${tag}-${process.pid}-${Date.now()}@example.com`;
  const up = web.upstreamBase;
  expect((await postEnv(up, "/api/notify/send_email", { to: email, type: 1 })).code).toBe(1);
  const reg = await postEnv(up, "/api/user/register", {
    type: "email",
    account: email,
    password: PASSWORD,
    re_password: PASSWORD,
    sms_code: await waitForCode(web.sink.httpUrl, email),
  });
  expect(reg.code).toBe(1);
  const jar = new Map<string, string>();
  const page = await fetch(`${web.base}/login`, { redirect: "manual" });
  keepCookies(page, jar);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1];
  const res = await fetch(`${web.base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieHeader(jar),
      origin: web.base,
    },
    body: new URLSearchParams({
      csrf,
      intent: "login",
      login_type: "email",
      account: email,
      password: PASSWORD,
    }).toString(),
  });
  expect(res.status).toBe(302);
  keepCookies(res, jar);
  return jar;
}

async function page(jar: Map<string, string>): Promise<{ html: string; csrf: string }> {
  const res = await fetch(`${web.base}/mine/auth`, { headers: { cookie: cookieHeader(jar) } });
  keepCookies(res, jar);
  expect(res.status).toBe(200);
  const html = await res.text();
  return { html, csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "" };
}

type Upload = { bytes: Uint8Array; name: string; type: string } | null;

async function post(
  jar: Map<string, string>,
  fields: Record<string, string>,
  front: Upload,
  back: Upload,
): Promise<{ status: number; text: string; location: string | null }> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  for (const [name, f] of [
    ["front", front],
    ["back", back],
  ] as const)
    if (f) body.append(name, new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(`${web.base}/mine/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookieHeader(jar), origin: web.base },
    body,
  });
  keepCookies(res, jar);
  return { status: res.status, text: await res.text(), location: res.headers.get("location") };
}

const png = async (shade: number) => ({
  bytes: await sharp({
    create: { width: 10, height: 10, channels: 3, background: { r: shade, g: 40, b: 90 } },
  })
    .png()
    .toBuffer(),
  name: "id.png",
  type: "image/png",
});

function count(table: "uploads" | "real_name_requests"): number {
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

describe("verification form (POST /mine/auth)", () => {
  it("refuses without storing anything, then submits and shows the waiting state", async () => {
    const jar = await signedIn("flow");
    const p0 = await page(jar);
    expect(p0.html).toContain('data-testid="verify-form"');
    expect(p0.html).toContain(en("verify", "status_none"));
    const fields = { csrf: p0.csrf, name: "Jo Tan", card_id: "S1234567D" };
    const uploads = count("uploads");
    const requests = count("real_name_requests");
    const front = await png(1);
    const back = await png(2);

    const cases: [Record<string, string>, Upload, Upload, number, string][] = [
      [{ ...fields, name: " " }, front, back, 400, en("verify", "errors.name")],
      [{ ...fields, card_id: "12" }, front, back, 400, en("verify", "errors.card_id_length")],
      [{ ...fields, card_id: "12;34;56" }, front, back, 400, en("verify", "errors.card_id_chars")],
      [fields, null, back, 400, en("verify", "errors.front")],
      [fields, front, null, 400, en("verify", "errors.back")],
      [
        fields,
        front,
        { bytes: Buffer.from("plain text\n".repeat(40)), name: "b.png", type: "image/png" },
        400,
        en("verify", "errors.back_not_image"),
      ],
      [
        fields,
        front,
        { bytes: new Uint8Array(UPLOAD_MAX_BYTES + 1024), name: "b.png", type: "image/png" },
        413,
        "The image is too large; the limit is 5 MB",
      ],
      [
        { ...fields, name: "<b>x</b>" },
        front,
        back,
        400,
        "The name may contain only letters, spaces and",
      ],
      [{ ...fields, csrf: "forged" }, front, back, 403, ""],
    ];
    for (const [f, a, b, status, msg] of cases) {
      const r = await post(jar, f, a, b);
      expect(r.status, msg).toBe(status);
      if (msg) expect(r.text).toContain(msg);
      expect(count("uploads"), msg).toBe(uploads);
    }
    expect(count("real_name_requests")).toBe(requests);

    const ok = await post(jar, fields, front, back);
    expect(ok.status).toBe(302);
    expect(ok.location).toBe("/mine/auth");
    expect(count("real_name_requests")).toBe(requests + 1);
    const p1 = await page(jar);
    expect(p1.html).toContain(en("verify", "status_waiting"));
    expect(p1.html).toContain("S1*****7D");
    expect(p1.html).not.toContain('data-testid="verify-form"');
    // A second post of the form (another tab): refused, nothing uploaded.
    const after = count("uploads");
    const again = await post(jar, fields, front, back);
    expect(again.status).toBe(400);
    expect(again.text).toContain(en("verify", "errors.state"));
    expect(count("uploads")).toBe(after);
  }, 60_000);
});
