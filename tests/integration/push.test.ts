/**
 * Web Push end to end without an outside service: a push endpoint of the test's own (HTTPS on
 * loopback, its CA given to the upstream as PUSH_CA_FILE) checks each request as a push service
 * does (the VAPID JWT's ES256 signature with the key the request names, its audience, expiry and
 * subject) and decrypts the aes128gcm payload with the subscription's private key and auth secret,
 * as the browser would. A notice reaches a subscribed browser in its language; a failing push
 * service is tried again after a back-off; a subscription the service answers 410 for is removed;
 * per-kind choices turn a channel off, and e-mail on.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "selfsigned";
// http_ece: the payload encryption of RFC 8188/8291 that web-push itself uses.
import ece from "http_ece";
import { NOTICE_KINDS } from "@contract/api/notify";
import { loginEmail, registerEmail } from "./accounts-helpers.js";
import {
  declareDeposit,
  HARNESS_OPERATOR_TOKEN,
  startUpstream,
  type Server,
} from "./upstream-harness.js";

const OPERATOR = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };

/** What the push endpoint received, checked and decrypted. */
interface Received {
  path: string;
  ttl: string | undefined;
  jwt: { aud: string; exp: number; sub: string };
  message: { title: string; body: string; url: string };
}

/** A browser's side of a subscription: its ECDH key pair and auth secret. */
function browserKeys() {
  const ecdh = crypto.createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    ecdh,
    auth,
    p256dh: ecdh.getPublicKey().toString("base64url"),
    authText: auth.toString("base64url"),
  };
}

/** Verifies a VAPID `Authorization: vapid t=JWT, k=KEY` header; the JWT's claims. */
function checkVapid(header: string | undefined): Received["jwt"] {
  const m = /^vapid t=([^,]+),\s*k=(.+)$/.exec(header ?? "");
  if (!m) throw new Error(`no VAPID authorization: ${header}`);
  const [h, p, sig] = m[1].split(".");
  const point = Buffer.from(m[2], "base64url");
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: point.subarray(1, 33).toString("base64url"),
    y: point.subarray(33, 65).toString("base64url"),
  };
  const ok = crypto.verify(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key: crypto.createPublicKey({ key: jwk, format: "jwk" }), dsaEncoding: "ieee-p1363" },
    Buffer.from(sig, "base64url"),
  );
  if (!ok) throw new Error("the VAPID signature does not verify");
  expect(JSON.parse(Buffer.from(h, "base64url").toString())).toMatchObject({ alg: "ES256" });
  return JSON.parse(Buffer.from(p, "base64url").toString());
}

let s: Server;
let pushBase = "";
let dir = "";
let pushServer: https.Server;
const received: Received[] = [];
/** What the endpoint answers next, per path (default 201). */
const answers = new Map<string, number[]>();
const keysByPath = new Map<string, ReturnType<typeof browserKeys>>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-push-"));
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
  });
  fs.writeFileSync(path.join(dir, "ca.pem"), pems.cert);
  pushServer = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const planned = answers.get(req.url!)?.shift() ?? 201;
      if (planned === 201) {
        const jwt = checkVapid(req.headers.authorization);
        expect(req.headers["content-encoding"]).toBe("aes128gcm");
        const k = keysByPath.get(req.url!)!;
        const plain = ece.decrypt(Buffer.concat(chunks), {
          version: "aes128gcm",
          privateKey: k.ecdh,
          authSecret: k.authText,
        });
        received.push({
          path: req.url!,
          ttl: req.headers.ttl as string | undefined,
          jwt,
          message: JSON.parse(plain.toString("utf8")),
        });
      }
      res.writeHead(planned).end();
    });
  });
  await new Promise<void>((r) => pushServer.listen(0, "127.0.0.1", r));
  pushBase = `https://127.0.0.1:${(pushServer.address() as AddressInfo).port}`;
  s = await startUpstream({
    tmpPrefix: "tp-push-up-",
    seededDeposits: "shown",
    config: {
      devOutbox: true,
      simulate: false,
      smtpUrl: null,
      pushCaFile: path.join(dir, "ca.pem"),
      webUrl: "https://trade.example.com",
    },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
  await new Promise((r) => pushServer?.close(r));
  fs.rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
async function user(): Promise<{ token: string; email: string }> {
  const email = `push${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  return { token: (await loginEmail(s, email)).data.token, email };
}

/** Subscribes a new "browser" of the user at /push/NAME, asking in `lang`. */
async function subscribe(token: string, name: string, lang = "en"): Promise<string> {
  const k = browserKeys();
  const p = `/push/${name}`;
  keysByPath.set(p, k);
  const r = await s.post(
    "/api/push/subscribe",
    { endpoint: pushBase + p, p256dh: k.p256dh, auth: k.authText },
    { token, lang },
  );
  expect(r.code, r.msg).toBe(1);
  return p;
}

/** Credits a deposit of the user's: a deposit_credited notice. */
async function credit(token: string, usd = "20"): Promise<void> {
  const id = await declareDeposit(s, token, usd);
  expect((await s.post(`/admin/api/charges/${id}/approve`, {}, OPERATOR)).code).toBe(1);
}

const rounds = (n = 1) =>
  (async () => {
    for (let i = 0; i < n; i++) await s.up.noticeSender!.round();
  })();

describe("Web Push", () => {
  it("publishes its VAPID key, and a notice reaches the browser signed and encrypted, in its language", async () => {
    const key = await s.get("/api/push/key");
    expect(Buffer.from(key.data.public_key, "base64url")).toHaveLength(65);
    const u = await user();
    const p = await subscribe(u.token, "de-phone", "de");
    await credit(u.token);
    await rounds();
    const got = received.filter((r) => r.path === p);
    expect(got).toHaveLength(1);
    expect(got[0].jwt.aud).toBe(pushBase);
    expect(got[0].jwt.sub).toBe("https://trade.example.com");
    expect(got[0].jwt.exp * 1000).toBeGreaterThan(Date.now());
    expect(Number(got[0].ttl)).toBeGreaterThan(0);
    expect(got[0].message.url).toBe("/mine/notifications");
    // The device asked in German: the push is German.
    expect(got[0].message.title).not.toBe("Deposit credited");
    expect(got[0].message.body).toContain("20.00");
    // Delivered once.
    await rounds();
    expect(received.filter((r) => r.path === p)).toHaveLength(1);
  });

  it("a failing push service is tried again after a back-off", async () => {
    const u = await user();
    const p = await subscribe(u.token, "flaky");
    answers.set(p, [500]);
    await credit(u.token);
    await rounds();
    expect(received.filter((r) => r.path === p)).toHaveLength(0);
    const row = s.up.ctx.db
      .prepare("SELECT attempts, next_at, error FROM notice_deliveries ORDER BY id DESC LIMIT 1")
      .get() as { attempts: number; next_at: number; error: string };
    expect(row.attempts).toBe(1);
    expect(row.next_at).toBeGreaterThan(Date.now());
    // As if the back-off had passed.
    s.up.ctx.db.prepare("UPDATE notice_deliveries SET next_at = 0 WHERE done_at IS NULL").run();
    await rounds();
    expect(received.filter((r) => r.path === p)).toHaveLength(1);
  });

  it("a subscription the push service no longer knows (410) is removed", async () => {
    const u = await user();
    const p = await subscribe(u.token, "gone");
    answers.set(p, [410]);
    await credit(u.token);
    await rounds();
    const left = s.up.ctx.db
      .prepare("SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = ?")
      .get(pushBase + p) as { n: number };
    expect(left.n).toBe(0);
    expect((await s.get("/api/user/notice_settings", { token: u.token })).data.push_devices).toBe(
      0,
    );
  });

  it("per-kind channels: push turned off for a kind, e-mail turned on", async () => {
    const u = await user();
    const p = await subscribe(u.token, "choosy");
    const settings = await s.get("/api/user/notice_settings", { token: u.token });
    expect(settings.data.kinds).toHaveLength(NOTICE_KINDS.length);
    expect(settings.data.kinds[0]).toMatchObject({ email: false, push: true });
    const body: Record<string, string> = {};
    for (const k of NOTICE_KINDS) if (k !== "deposit_credited") body[`push_${k}`] = "1";
    body.email_deposit_credited = "1";
    const saved = await s.post("/api/user/notice_settings", body, { token: u.token });
    expect(saved.msg).toBe("Notification settings saved");
    expect(saved.data.kinds.find((k: any) => k.kind === "deposit_credited")).toEqual({
      kind: "deposit_credited",
      email: true,
      push: false,
    });
    await credit(u.token);
    await rounds();
    expect(received.filter((r) => r.path === p)).toHaveLength(0);
    const mail = s.up.ctx.db
      .prepare("SELECT subject FROM outbox WHERE recipient = ? AND purpose = 0")
      .all(u.email) as { subject: string }[];
    expect(mail.map((m) => m.subject)).toEqual(["Deposit credited"]);
  });

  it("a browser unsubscribes", async () => {
    const u = await user();
    const p = await subscribe(u.token, "leaving");
    const r = await s.post("/api/push/unsubscribe", { endpoint: pushBase + p }, { token: u.token });
    expect(r.code).toBe(1);
    await credit(u.token);
    await rounds();
    expect(received.filter((x) => x.path === p)).toHaveLength(0);
  });
});
