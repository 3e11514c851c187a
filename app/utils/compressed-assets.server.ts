/**
 * The fingerprinted build assets (public/build: scripts and style sheets) answered compressed from
 * memory. Each file is compressed once per process and encoding, the first time it is asked for,
 * and every later request gets the same bytes: brotli (quality 11) where the browser takes it,
 * else gzip (level 9). The compression middleware compressed every script again for every request
 * that fetched it, and every new visitor, and every phone whose cache was emptied, fetches all of a
 * page's scripts: in the browser tests that was a tenth of the web server's CPU. Brotli also makes
 * what a phone downloads smaller than gzip did.
 *
 * Invariants:
 * - the files are immutable (their names carry their content's hash, and a new build is a new
 *   process), so a cached answer is never stale;
 * - the cache holds at most the compressed build (each existing file once per encoding; a name
 *   that is not a file is never kept);
 * - only names inside `root` are read: a path with `..`, a backslash or a NUL byte is passed on
 *   untouched (express.static then answers it as it always did).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { NextFunction, Request, Response } from "express";

/** The asset types answered compressed, with their Content-Type. */
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

export type AssetEncoding = "br" | "gzip";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** `bytes` compressed for `encoding`, at the strongest setting: the work is done once per file. */
export function compressAsset(bytes: Buffer, encoding: AssetEncoding): Promise<Buffer> {
  if (encoding === "br") {
    return brotli(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    });
  }
  return gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION });
}

/** The file under `root` that `urlPath` names, or null when it is not a plain relative name. */
export function assetFile(root: string, urlPath: string): string | null {
  let name: string;
  try {
    name = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (name.includes("\0") || name.includes("\\")) return null;
  const parts = name.split("/").filter((p) => p !== "");
  if (parts.length === 0 || parts.some((p) => p === "." || p === "..")) return null;
  return path.join(root, ...parts);
}

/**
 * Middleware for the build's folder (mounted at its URL prefix, before express.static with the same
 * root): answers GET and HEAD for a script, style sheet or source map compressed, when the request
 * accepts br or gzip; passes everything else on.
 */
export function compressedAssets(root: string) {
  const cache = new Map<string, Promise<Buffer | null>>();
  const compressed = (file: string, encoding: AssetEncoding): Promise<Buffer | null> => {
    const key = `${encoding}:${file}`;
    let answer = cache.get(key);
    if (!answer) {
      answer = fs.readFile(file).then(
        (bytes) => compressAsset(bytes, encoding),
        () => {
          // Not a file (missing, a folder): express.static answers it. Not kept, so that requests
          // for made-up names cannot grow the cache.
          cache.delete(key);
          return null;
        },
      );
      cache.set(key, answer);
    }
    return answer;
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    const file = type ? assetFile(root, req.path) : null;
    // Brotli whenever the browser takes it (browsers list gzip first with the same weight).
    const encoding: AssetEncoding | false = req.acceptsEncodings("br")
      ? "br"
      : req.acceptsEncodings("gzip")
        ? "gzip"
        : false;
    if (!type || !file || !encoding) return next();
    let body: Buffer | null;
    try {
      body = await compressed(file, encoding);
    } catch (err) {
      return next(err);
    }
    if (!body) return next();
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", String(body.length));
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
