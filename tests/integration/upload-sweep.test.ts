/**
 * The sweep of orphan uploads (upstream/modules/uploads/service.ts): an image uploaded for a
 * deposit or a verification that was never declared is removed, row and file, once it is older
 * than UPLOAD_ORPHAN_GRACE_S; a younger one stays, and one that a deposit or a real-name request
 * names stays whatever its age. A declaration naming a swept image is refused with the message of
 * a missing upload and stores nothing. The clock is the `now` handed to sweep(): nothing waits.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUpstream } from "../../upstream/app.js";
import { ConfigError, loadConfig } from "../../upstream/platform/config.js";
import { loginEmail, registerEmail, type Server } from "./accounts-helpers.js";
import { startUpstream } from "./upstream-harness.js";

const GRACE_S = 24 * 3600;
const GRACE_MS = GRACE_S * 1000;
const MINUTE = 60_000;
let s: Server;
let seq = 0;

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-sweep-",
    seededDeposits: "shown",
    config: { devOutbox: true, smtpUrl: null, simulate: false },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function realUser(): Promise<string> {
  const email = `sweep${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  return (await loginEmail(s, email)).data.token as string;
}

/** Uploads a small PNG as `token`; its stored name. */
async function upload(token: string, color = "#2a7"): Promise<string> {
  const png = await sharp({ create: { width: 16, height: 12, channels: 3, background: color } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "image.png");
  const res = await fetch(`${s.base}/api/common/image_upload`, {
    method: "POST",
    headers: { authorization: token },
    body: form,
  });
  const body = (await res.json()) as { code: number; data: { name: string } };
  expect(body.code).toBe(1);
  return body.data.name;
}

const dir = () => s.up.ctx.uploads.dir;
const fileOf = (name: string) => path.join(dir(), name);
const hasRow = (name: string) =>
  s.up.ctx.db.prepare("SELECT 1 FROM uploads WHERE name = ?").get(name) !== undefined;
const count = (table: string) =>
  (s.up.ctx.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
/** Whether the owner still reads the image over HTTP. */
const readable = async (token: string, name: string) =>
  (await fetch(`${s.base}/api/common/uploads/${name}`, { headers: { authorization: token } }))
    .status === 200;

const sweep = (now: number) => s.up.ctx.uploads.sweep(now);

async function deposit(token: string, proof: string, lang = "en") {
  const channel = (await s.get("/api/quickCharge/info", { token })).data.channels[0];
  return s.post(
    "/api/quickCharge/submit",
    { number: "100", proofImg: proof, charge_id: channel.id },
    { token, lang },
  );
}

async function verify(token: string, front: string, reverse: string, lang = "en") {
  return s.post(
    "/api/user_real/real_name",
    { name: "Mei Ling Chan", card_id: "A1234567", front_pic: front, reverse_pic: reverse },
    { token, lang },
  );
}

/** A message of the upstream's catalogue, as the API answers it in `lang`. */
function message(lang: string, file: string, key: string): string {
  const p = path.resolve(__dirname, "../../upstream/locales", lang, `${file}.json`);
  return (JSON.parse(fs.readFileSync(p, "utf8")) as Record<string, string>)[key];
}

describe("orphan upload sweep", () => {
  it("keeps an unreferenced upload within the grace period and removes it, row and file, after", async () => {
    const token = await realUser();
    const name = await upload(token);
    const t0 = Date.now();
    expect(fs.existsSync(fileOf(name))).toBe(true);

    sweep(t0 + GRACE_MS - MINUTE);
    expect(hasRow(name)).toBe(true);
    expect(fs.existsSync(fileOf(name))).toBe(true);
    expect(await readable(token, name)).toBe(true);

    const r = sweep(t0 + GRACE_MS + 1);
    expect(r.removed).toBeGreaterThanOrEqual(1);
    expect(hasRow(name)).toBe(false);
    expect(fs.existsSync(fileOf(name))).toBe(false);
    expect(await readable(token, name)).toBe(false);
  });

  it("never removes a deposit's proof or a verification's pictures, whatever their age", async () => {
    const token = await realUser();
    const proof = await upload(token, "#fa0");
    const front = await upload(token, "#123");
    const back = await upload(token, "#456");
    const orphan = await upload(token, "#789");
    expect((await deposit(token, proof)).code).toBe(1);
    expect((await verify(token, front, back)).code).toBe(1);

    const r = sweep(Date.now() + 10 * 365 * 24 * 3600 * 1000);
    expect(r.removed).toBeGreaterThanOrEqual(1);
    for (const name of [proof, front, back]) {
      expect(hasRow(name)).toBe(true);
      expect(fs.existsSync(fileOf(name))).toBe(true);
      expect(await readable(token, name)).toBe(true);
    }
    expect(hasRow(orphan)).toBe(false);
    expect(fs.existsSync(fileOf(orphan))).toBe(false);
  });

  it("refuses a deposit or a verification naming a swept upload, with the missing upload's message, storing nothing", async () => {
    const token = await realUser();
    const proof = await upload(token, "#fa0");
    const front = await upload(token, "#123");
    const back = await upload(token, "#456");
    sweep(Date.now() + GRACE_MS + 1);
    for (const name of [proof, front, back]) expect(hasRow(name)).toBe(false);
    const charges = count("charges");
    const requests = count("real_name_requests");

    for (const lang of ["en", "fr"]) {
      const d = await deposit(token, proof, lang);
      expect(d).toMatchObject({
        code: 0,
        msg: message(lang, "money", "deposit_proof_missing"),
      });
      const v = await verify(token, front, back, lang);
      expect(v).toMatchObject({ code: 0, msg: message(lang, "verify", "verify.pic_not_found") });
    }
    expect(message("en", "money", "deposit_proof_missing")).toBe(
      "Please upload a proof of payment",
    );
    expect(count("charges")).toBe(charges);
    expect(count("real_name_requests")).toBe(requests);

    // Uploaded again, the same declarations go through.
    expect((await deposit(token, await upload(token, "#fa1"))).code).toBe(1);
  });

  it("removes the row of an upload whose file is already gone, without an error", async () => {
    const token = await realUser();
    const name = await upload(token);
    fs.rmSync(fileOf(name));
    expect(() => sweep(Date.now() + GRACE_MS + 1)).not.toThrow();
    expect(hasRow(name)).toBe(false);
  });

  it("removes a file left without its row once it is older than the grace period", () => {
    const stray = "0123456789abcdef0123456789abcdef.jpg";
    const other = "notes.txt";
    fs.writeFileSync(fileOf(stray), "x");
    fs.writeFileSync(fileOf(other), "x");
    const written = fs.statSync(fileOf(stray)).mtimeMs;

    expect(sweep(written + GRACE_MS - MINUTE).strays).toBe(0);
    expect(fs.existsSync(fileOf(stray))).toBe(true);

    expect(sweep(written + GRACE_MS + MINUTE).strays).toBe(1);
    expect(fs.existsSync(fileOf(stray))).toBe(false);
    // Only names the upstream makes are its files.
    expect(fs.existsSync(fileOf(other))).toBe(true);
    fs.rmSync(fileOf(other));
  });

  it("sweeps when the upstream starts", async () => {
    const token = await realUser();
    const old = await upload(token, "#111");
    const young = await upload(token, "#222");
    // The first upload made two hours ago, past a grace period of one hour.
    s.up.ctx.db
      .prepare("UPDATE uploads SET created_at = created_at - ? WHERE name = ?")
      .run(2 * 3600 * 1000, old);
    const again = await buildUpstream({
      ...s.up.ctx.config,
      port: 0,
      uploadOrphanGraceSeconds: 3600,
    });
    try {
      await again.listen();
      expect(hasRow(old)).toBe(false);
      expect(fs.existsSync(fileOf(old))).toBe(false);
      expect(hasRow(young)).toBe(true);
      expect(fs.existsSync(fileOf(young))).toBe(true);
    } finally {
      await again.close();
    }
  }, 60_000);
});

/** The configuration of an environment holding only `vars`. */
const configOf = (vars: Record<string, string>) => loadConfig(vars as NodeJS.ProcessEnv);

describe("UPLOAD_ORPHAN_GRACE_S", () => {
  it("defaults to 24 hours, takes whole seconds of at least an hour, and names itself when wrong", () => {
    expect(configOf({}).uploadOrphanGraceSeconds).toBe(GRACE_S);
    expect(configOf({ UPLOAD_ORPHAN_GRACE_S: "7200" }).uploadOrphanGraceSeconds).toBe(7200);
    for (const bad of ["60", "1.5", "a day"]) {
      expect(() => configOf({ UPLOAD_ORPHAN_GRACE_S: bad })).toThrow(ConfigError);
      expect(() => configOf({ UPLOAD_ORPHAN_GRACE_S: bad })).toThrow(/UPLOAD_ORPHAN_GRACE_S/);
    }
  });
});
