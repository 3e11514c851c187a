/**
 * Edges of the forms through the real server.ts:
 *
 * - A form body beyond FORM_MAX_BYTES, sent by a slow client over a raw connection: the 413 page
 *   with its translated message is answered before the body is read, the connection then lingers
 *   (app/utils/lingering-close.server.ts) so that every byte the client still sends is taken and the
 *   answer is read every time, and the server closes it once the client is done or once it sent more
 *   than the linger bound.
 * - A verification code asked for within the minute after the last one to that address (the
 *   upstream's real minute here): the page says how long to wait, and the send button counts down,
 *   without JavaScript too.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINGER_MAX_BYTES } from "../../app/utils/lingering-close.server";
import { postPageForm, registerEmailOverApi, startWeb, type WebServer } from "./web-harness";

const FORM_MAX_BYTES = 64 * 1024;
const message = (lang: string) =>
  (
    JSON.parse(
      fs.readFileSync(path.resolve(__dirname, `../../locales/${lang}/common.json`), "utf8"),
    ) as { form_too_large: string }
  ).form_too_large;

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { FORM_MAX_BYTES: String(FORM_MAX_BYTES) } });
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

interface Exchange {
  /** Everything the server sent, as text. */
  answer: string;
  /** Body bytes the client wrote before the server closed (all of them when it never cut). */
  written: number;
  /** A write or read error the client met (EPIPE, ECONNRESET), if any. */
  error: string | null;
}

/**
 * POSTs `bodyBytes` of form body to `url` in `chunkBytes` pieces, waiting `gapMs` between them (a
 * slow phone on a bad network), declaring the length or sending it chunked; then half-closes and
 * reads the answer until the server closes the connection.
 */
function slowPost(opts: {
  url: string;
  bodyBytes: number;
  chunkBytes: number;
  gapMs: number;
  chunked: boolean;
  lang?: string;
}): Promise<Exchange> {
  const { port } = new URL(web.base);
  return new Promise((resolve) => {
    // Half-open allowed: the client goes on sending after the server's FIN, as a client that has
    // not looked at the answer yet does (one that stops sending at the FIN is the easy case).
    const socket = net.connect({ port: Number(port), host: "127.0.0.1", allowHalfOpen: true });
    const received: Buffer[] = [];
    let written = 0;
    let error: string | null = null;
    let stopped = false;
    socket.on("data", (b) => received.push(b));
    socket.on("error", (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on("close", () => {
      stopped = true;
      resolve({ answer: Buffer.concat(received).toString("utf8"), written, error });
    });
    socket.on("connect", async () => {
      const head = [
        `POST ${opts.url} HTTP/1.1`,
        `Host: 127.0.0.1:${port}`,
        "Content-Type: application/x-www-form-urlencoded",
        `Accept-Language: ${opts.lang ?? "en"}`,
        opts.chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${opts.bodyBytes}`,
        "",
        "",
      ].join("\r\n");
      socket.write(head);
      const piece = Buffer.alloc(opts.chunkBytes, "a");
      while (written < opts.bodyBytes && !stopped) {
        const n = Math.min(opts.chunkBytes, opts.bodyBytes - written);
        const data = piece.subarray(0, n);
        const framed = opts.chunked
          ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), data, Buffer.from("\r\n")])
          : data;
        // Waits for the kernel to take the piece: the client never outruns what the server reads.
        const flushed = socket.write(framed);
        written += n;
        if (!flushed) await new Promise((r) => socket.once("drain", r));
        if (opts.gapMs > 0) await new Promise((r) => setTimeout(r, opts.gapMs));
      }
      if (!stopped) socket.end(opts.chunked ? "0\r\n\r\n" : "");
    });
  });
}

describe("a form body beyond FORM_MAX_BYTES", () => {
  it("is answered 413 with the translated message, read by a slow client every time", async () => {
    for (let round = 0; round < 3; round++) {
      const ex = await slowPost({
        url: "/login",
        bodyBytes: 4 * FORM_MAX_BYTES,
        chunkBytes: 8 * 1024,
        gapMs: 5,
        chunked: false,
      });
      expect(ex.error, `round ${round}`).toBeNull();
      expect(ex.written).toBe(4 * FORM_MAX_BYTES);
      expect(ex.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(ex.answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(ex.answer).toContain(message("en"));
    }
  }, 60_000);

  it("is refused the same when its length is not declared (chunked), in the reader's language", async () => {
    const ex = await slowPost({
      url: "/login",
      bodyBytes: 4 * FORM_MAX_BYTES,
      chunkBytes: 8 * 1024,
      gapMs: 5,
      chunked: true,
      lang: "fr",
    });
    expect(ex.error).toBeNull();
    expect(ex.written).toBe(4 * FORM_MAX_BYTES);
    expect(ex.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(ex.answer).toContain(message("fr"));
  }, 60_000);

  it("stops lingering once the client sent more than the bound: the connection is closed", async () => {
    const ex = await slowPost({
      url: "/login",
      bodyBytes: LINGER_MAX_BYTES * 2,
      chunkBytes: 256 * 1024,
      gapMs: 0,
      chunked: false,
    });
    expect(ex.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(ex.written).toBeGreaterThan(LINGER_MAX_BYTES);
    expect(ex.written).toBeLessThan(LINGER_MAX_BYTES * 2);
  }, 60_000);

  it("leaves the server answering the next request on a new connection", async () => {
    const res = await fetch(`${web.base}/login`);
    expect(res.status).toBe(200);
  });
});

describe("a code asked for again within the minute", () => {
  it("shows the wait the upstream gives and a counting-down send button", async () => {
    const email = `wait-${process.pid}-${Date.now()}@example.com`;
    await registerEmailOverApi(web, email, "Secret-1234");
    const { res } = await postPageForm(web.base, "/forgot", {
      intent: "send_code",
      type: "email",
      account: email,
    });
    const html = await res.text();
    const wait = /Please wait (\d+) seconds before requesting another code/.exec(html);
    expect(wait, html.slice(0, 500)).not.toBeNull();
    // The sign-up code went out moments ago: most of the minute is left.
    expect(Number(wait![1])).toBeGreaterThan(30);
    expect(Number(wait![1])).toBeLessThanOrEqual(60);
  }, 60_000);
});
