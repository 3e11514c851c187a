/**
 * The build's scripts and style sheets answered compressed from memory
 * (app/utils/compressed-assets.server.ts), mounted as server.ts mounts them: behind the compression
 * middleware and in front of express.static.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetFile, compressedAssets } from "~/utils/compressed-assets.server";

const SCRIPT = `export const greeting = ${JSON.stringify("hello ".repeat(2000))};\n`;
let root: string;
let server: http.Server;
let base: string;

/** A GET (or HEAD) with these request headers: status, headers and the raw body bytes. */
function get(
  urlPath: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tp-assets-"));
  fs.mkdirSync(path.join(root, "_shared"));
  fs.writeFileSync(path.join(root, "_shared", "chunk-ABC123.js"), SCRIPT);
  fs.writeFileSync(path.join(root, "root-XYZ.css"), "body{margin:0}\n".repeat(200));
  fs.writeFileSync(path.join(root, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  fs.writeFileSync(path.join(os.tmpdir(), "outside-assets.js"), "secret();\n");
  const app = express();
  app.use(compression());
  app.use(
    "/build",
    compressedAssets(root),
    express.static(root, { immutable: true, maxAge: "1y" }),
  );
  server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(path.join(os.tmpdir(), "outside-assets.js"), { force: true });
});

describe("compressed build assets", () => {
  it("sends a script as brotli to a browser that takes it, the same bytes every time", async () => {
    const first = await get("/build/_shared/chunk-ABC123.js", { "accept-encoding": "gzip, br" });
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBe("br");
    expect(first.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(first.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(first.headers["vary"]).toBe("Accept-Encoding");
    expect(Number(first.headers["content-length"])).toBe(first.body.length);
    expect(zlib.brotliDecompressSync(first.body).toString()).toBe(SCRIPT);
    expect(first.body.length).toBeLessThan(SCRIPT.length / 20);
    const again = await get("/build/_shared/chunk-ABC123.js", { "accept-encoding": "br" });
    expect(again.body.equals(first.body)).toBe(true);
  });

  it("sends gzip to a browser without brotli, and the plain file to one that takes neither", async () => {
    const gz = await get("/build/root-XYZ.css", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(zlib.gunzipSync(gz.body).toString()).toBe("body{margin:0}\n".repeat(200));
    const plain = await get("/build/root-XYZ.css", { "accept-encoding": "identity" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe("body{margin:0}\n".repeat(200));
  });

  it("answers HEAD with the headers alone", async () => {
    const head = await get("/build/_shared/chunk-ABC123.js", { "accept-encoding": "br" }, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it("leaves images, missing files and names outside the folder to the file server", async () => {
    const png = await get("/build/logo.png", { "accept-encoding": "br" });
    expect(png.status).toBe(200);
    expect(png.headers["content-encoding"]).toBeUndefined();
    expect((await get("/build/missing-1.js", { "accept-encoding": "br" })).status).toBe(404);
    const escape = await get("/build/%2e%2e/outside-assets.js", { "accept-encoding": "br" });
    expect(escape.status).not.toBe(200);
    expect(escape.body.toString()).not.toContain("secret");
  });

  it("names only plain relative files inside the root", () => {
    expect(assetFile("/srv/build", "/_shared/a.js")).toBe(path.join("/srv/build", "_shared/a.js"));
    expect(assetFile("/srv/build", "/../etc/passwd.js")).toBeNull();
    expect(assetFile("/srv/build", "/%2e%2e/x.js")).toBeNull();
    expect(assetFile("/srv/build", "/a%5cb.js")).toBeNull();
    expect(assetFile("/srv/build", "/a%00.js")).toBeNull();
    expect(assetFile("/srv/build", "/%E0%A4%A.js")).toBeNull();
    expect(assetFile("/srv/build", "/")).toBeNull();
  });
});
