/**
 * Upload pressure benchmark (npm run bench:uploads): how fast sign-ins stay while the most expensive
 * images anyone may send are being processed (issue 20).
 *
 * Starts the upstream as operators run it (a child process, its own store), registers users, then
 * keeps UPLOADS uploads running at once, each the costliest PNG the upstream accepts (the most pixels
 * it allows, as much noise as fits in UPLOAD_MAX_BYTES), while SIGNINS sign-ins
 * are made one after the other. Prints the sign-ins' p50, p99 and max, and the uploads' throughput;
 * then the same sign-ins with no upload running, as the baseline.
 *
 * Env: BENCH_UPLOADS (10), BENCH_SIGNINS (60), BENCH_MEGAPIXELS (the image's size; default: the
 * most the upstream allows, 16), BENCH_UPSTREAM_ROOT (the checkout whose upstream to start: the
 * current one by default; point it at an older commit's worktree to measure "before").
 * Loopback only, bounded counts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import sharp from "sharp";
import { startMessageSink, waitForCode, type MessageSink } from "../support/message-sink.js";
import { freePort } from "../../scripts/services/ports.js";

const UPLOADS = Number(process.env.BENCH_UPLOADS || 10);
const SIGNINS = Number(process.env.BENCH_SIGNINS || 60);
const MEGAPIXELS = Number(process.env.BENCH_MEGAPIXELS || 16);
const ROOT = path.resolve(process.env.BENCH_UPSTREAM_ROOT || ".");
const PASSWORD = "Bench-pass-1234";

async function startUpstream(
  sink: MessageSink,
): Promise<{ base: string; proc: ChildProcess; dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-bench-up-"));
  const port = await freePort();
  const proc = spawn(process.execPath, ["--import", "tsx", "upstream/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATA_DIR: dir,
      UPSTREAM_PORT: String(port),
      UPSTREAM_HOST: "127.0.0.1",
      SMTP_URL: sink.smtpUrl,
      RATE_LIMIT: "0",
      MARKET_FEED: "manual",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("upstream did not start")), 60_000);
    readline.createInterface({ input: proc.stdout! }).on("line", (line) => {
      if (line.includes("UPSTREAM_READY")) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once("exit", (code) => reject(new Error(`upstream exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, proc, dir };
}

async function post(base: string, p: string, body: Record<string, string>, token?: string) {
  const res = await fetch(base + p, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(token ? { authorization: token } : {}),
    },
    body: new URLSearchParams(body).toString(),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

async function register(base: string, sink: MessageSink, email: string): Promise<void> {
  await post(base, "/api/notify/send_email", { to: email, type: "1" });
  const r = await post(base, "/api/user/register", {
    type: "email",
    account: email,
    password: PASSWORD,
    re_password: PASSWORD,
    sms_code: await waitForCode(sink.httpUrl, email),
  });
  if (r.code !== 1) throw new Error(`register: ${r.msg}`);
}

async function signIn(base: string, email: string): Promise<string> {
  const r = await post(base, "/api/user/loginForU", {
    account: email,
    password: PASSWORD,
    login_type: "email",
  });
  if (r.code !== 1) throw new Error(`sign-in: ${r.msg}`);
  return r.data.token as string;
}

/**
 * A costly PNG of `megapixels` within the byte limit: random bytes scattered over a flat image, as
 * many as the limit allows (random data does not compress; the flat rest costs decoding, filtering
 * and compressing all the same).
 */
async function heavyPng(megapixels: number, limitBytes = 5 * 1024 * 1024): Promise<Buffer> {
  const side = Math.floor(Math.sqrt(megapixels * 1_000_000));
  let share = 0.1;
  for (;;) {
    const raw = Buffer.alloc(side * side * 3, 0x88);
    const noise = crypto.randomBytes(Math.floor(raw.length * share));
    for (let i = 0; i < noise.length; i++) raw[Math.floor((i / share) % raw.length)] = noise[i];
    const png = await sharp(raw, { raw: { width: side, height: side, channels: 3 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    if (png.length <= limitBytes * 0.95 || share < 0.005) return png;
    share *= 0.8;
  }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function signInTimes(base: string, emails: string[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SIGNINS; i++) {
    const t0 = performance.now();
    await signIn(base, emails[i % emails.length]);
    times.push(performance.now() - t0);
  }
  return times;
}

async function main() {
  const sink = await startMessageSink();
  const up = await startUpstream(sink);
  try {
    const emails = Array.from({ length: 10 }, (_, i) => `bench${i}-${process.pid}@example.com`);
    for (const e of emails) await register(up.base, sink, e);
    const tokens = await Promise.all(emails.map((e) => signIn(up.base, e)));
    const image = await heavyPng(MEGAPIXELS);
    console.log(
      `image: ${MEGAPIXELS} MP PNG, ${(image.length / 1024).toFixed(0)} KiB; upstream at ${ROOT}`,
    );

    const quiet = await signInTimes(up.base, emails);
    let running = true;
    let uploaded = 0;
    let refused = 0;
    const started = performance.now();
    const workers = Array.from({ length: UPLOADS }, async (_, w) => {
      while (running) {
        const form = new FormData();
        form.append("file", new Blob([new Uint8Array(image)], { type: "image/png" }), "big.png");
        const r = (await (
          await fetch(`${up.base}/api/common/image_upload`, {
            method: "POST",
            headers: { authorization: tokens[w % tokens.length] },
            body: form,
          })
        ).json()) as { code: number };
        if (r.code === 1) uploaded++;
        else refused++;
      }
    });
    const loaded = await signInTimes(up.base, emails);
    running = false;
    await Promise.all(workers);
    const seconds = (performance.now() - started) / 1000;
    const line = (name: string, xs: number[]) =>
      console.log(
        `${name}: sign-in p50 ${pct(xs, 50).toFixed(0)} ms, p99 ${pct(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`,
      );
    line("no uploads", quiet);
    line(`${UPLOADS} uploads running`, loaded);
    console.log(
      `uploads: ${uploaded} stored, ${refused} refused in ${seconds.toFixed(1)} s (${(uploaded / seconds).toFixed(2)}/s)`,
    );
  } finally {
    up.proc.kill("SIGTERM");
    fs.rmSync(up.dir, { recursive: true, force: true });
    await sink.close();
  }
}

await main();
