/**
 * Image uploads over real multipart HTTP (upstream/API.md "Uploads"): an image is recognised by its
 * bytes, re-encoded without its metadata and stored under a server-made name that only its owner
 * can read; anything else (text renamed .png, a too large file, no file, a demo account) is refused
 * with a translated message and stores nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginEmail, registerEmail, type Server } from "./accounts-helpers.js";
import { startUpstream } from "./upstream-harness.js";

const MAX = 64 * 1024;
let s: Server;
let seq = 0;

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-upload-",
    config: { devOutbox: true, smtpUrl: null, simulate: false, uploadMaxBytes: MAX },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function realUser(): Promise<string> {
  const email = `upload${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  return (await loginEmail(s, email)).data.token;
}

async function upload(
  token: string | null,
  bytes: Buffer,
  filename = "proof.jpg",
  type = "image/jpeg",
  lang = "en",
) {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${s.base}/api/common/image_upload`, {
    method: "POST",
    headers: { lang, ...(token ? { authorization: token } : {}) },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as { code: number; msg: string; data: any },
  };
}

const uploadsDir = () => path.join(s.up.ctx.config.dataDir, "uploads");
const storedFiles = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).length : 0);

/** A small JPEG carrying EXIF metadata that must not survive (a place and a camera's owner). */
function photoWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: "#3a6" } })
    .withExif({ IFD0: { Copyright: "SECRET-OWNER-42", ImageDescription: "SECRET-PLACE-7" } })
    .jpeg()
    .toBuffer();
}

describe("image uploads", () => {
  it("stores an image without its metadata under a server-made name only its owner can read", async () => {
    const token = await realUser();
    const photo = await photoWithMetadata();
    expect(photo.includes("SECRET-PLACE-7")).toBe(true);
    const { status, body } = await upload(token, photo, "../../etc/passwd.jpg");
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 1, msg: "Image uploaded" });
    expect(body.data).toMatchObject({ mime: "image/jpeg", width: 64, height: 48 });
    expect(body.data.name).toMatch(/^[0-9a-f]{32}\.jpg$/);
    expect(body.data.url).toBe(`/api/common/uploads/${body.data.name}`);

    const stored = fs.readFileSync(path.join(uploadsDir(), body.data.name));
    expect(stored.includes("SECRET-PLACE-7")).toBe(false);
    expect(stored.includes("SECRET-OWNER-42")).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(fs.statSync(path.join(uploadsDir(), body.data.name)).mode & 0o777).toBe(0o600);

    const mine = await fetch(s.base + body.data.url, { headers: { authorization: token } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/jpeg");
    expect(mine.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await mine.arrayBuffer()).equals(stored)).toBe(true);

    const other = await realUser();
    const theirs = await fetch(s.base + body.data.url, { headers: { authorization: other } });
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { code: number }).code).toBe(404);
    const anonymous = await fetch(s.base + body.data.url);
    expect(((await anonymous.json()) as { code: number }).code).toBe(999);
    const traversal = await fetch(`${s.base}/api/common/uploads/..%2F..%2Fup.sqlite`, {
      headers: { authorization: token },
    });
    expect(traversal.status).toBe(404);
  });

  it("refuses an image of more pixels than upload.max_megapixels from its header, and shrinks a long one", async () => {
    const token = await realUser();
    const png = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: "#fff" } })
        .png({ compressionLevel: 9, palette: true, colours: 2 })
        .toBuffer();
    const before = storedFiles();
    // 20 megapixels, a few kilobytes on the wire: refused before it is decoded.
    const big = await upload(token, await png(5000, 4000), "big.png");
    expect(big.body).toMatchObject({
      code: 0,
      msg: "The image has too many pixels; the limit is 16 megapixels",
    });
    expect(storedFiles()).toBe(before);
    // A long side beyond 4096 px is shrunk, proportions kept.
    const long = await upload(token, await png(6000, 1000), "long.png");
    expect(long.body.data).toMatchObject({ mime: "image/png", width: 4096, height: 683 });
    // The limit is an operator's setting.
    await s.setting("upload.max_megapixels", "4");
    try {
      const now = await upload(token, await png(2500, 2000), "five.png");
      expect(now.body.msg).toBe("The image has too many pixels; the limit is 4 megapixels");
    } finally {
      await s.setting("upload.max_megapixels", "16");
    }
    // Its own bound: making and shrinking images of 20 and 6 megapixels is CPU work, which took
    // over the suite's 20 s under test:calendar's weekend clock on a 2-core machine.
  }, 90_000);

  it("refuses what is not an image, whatever its name and type say, and stores nothing", async () => {
    const token = await realUser();
    const before = storedFiles();
    const text = Buffer.from("<?php echo 'not an image'; ?>\n".repeat(20));
    const renamed = await upload(token, text, "proof.png", "image/png", "de");
    expect(renamed.body).toMatchObject({
      code: 0,
      msg: "Es können nur JPEG-, PNG- oder WebP-Bilder hochgeladen werden",
      data: null,
    });
    // An image header followed by garbage does not decode.
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    expect((await upload(token, broken, "x.png", "image/png")).body.code).toBe(0);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    expect((await upload(token, svg, "x.svg", "image/svg+xml")).body.code).toBe(0);
    expect(storedFiles()).toBe(before);
    const count = s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM uploads").get() as { n: number };
    expect(count.n).toBe(before);
  });

  it("refuses a file beyond UPLOAD_MAX_BYTES with 413, a form without a file, and demo accounts", async () => {
    const token = await realUser();
    const before = storedFiles();
    const big = await sharp({
      create: {
        width: 600,
        height: 600,
        channels: 3,
        background: "#123456",
        noise: { type: "gaussian", mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    expect(big.length).toBeGreaterThan(MAX);
    const tooBig = await upload(token, big, "big.png", "image/png");
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({
      code: 0,
      msg: "The image is too large; the limit is 0.1 MB",
    });

    // A file whose bytes past the limit arrive as a chunk of their own, right at the cut: the
    // multipart reader returns the first MAX bytes without an error and only marks the file
    // truncated. Still the size refusal, never "not an image" of the cut bytes.
    const boundary = "----tp-cut-at-limit";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.png"\r\n` +
        "Content-Type: image/png\r\n\r\n",
    );
    const cut = await s.up.app.inject({
      method: "POST",
      url: "/api/common/image_upload",
      headers: {
        authorization: token,
        lang: "en",
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      payload: Readable.from([
        Buffer.concat([head, Buffer.alloc(MAX, 7)]),
        Buffer.from("x"),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(cut.statusCode).toBe(413);
    expect(cut.json()).toMatchObject({
      code: 0,
      msg: "The image is too large; the limit is 0.1 MB",
    });

    const empty = await fetch(`${s.base}/api/common/image_upload`, {
      method: "POST",
      headers: { authorization: token },
      body: (() => {
        const f = new FormData();
        f.append("note", "no file here");
        return f;
      })(),
    });
    expect(((await empty.json()) as { msg: string }).msg).toBe("Please choose an image file");

    const demo = await s.post("/api/user/createAccountDemoForU");
    const dl = await s.post("/api/user/loginForU", { demo_id: demo.data.demo_id });
    const refused = await upload(dl.data.token, await photoWithMetadata());
    expect(refused.body).toMatchObject({
      code: 0,
      msg: "Please register or log in to a real account",
    });
    expect((await upload(null, await photoWithMetadata())).body.code).toBe(999);
    expect(storedFiles()).toBe(before);
  });
});
