/**
 * The visitors' page cache (docs/decisions/0045-visitor-page-cache.md): a signed-out visitor's
 * page of the market (home, the trade screen) is rendered once per PAGE_CACHE_MS for every visitor
 * who asks for the same address (host, path and query) with the same cookies and language, as the
 * market's answers it is made of are already shared for MARKET_CACHE_MS
 * (app/upstream/market.server.ts).
 *
 * What makes one visitor's copy of a page differ from another's is known and put in per request:
 * - the CSP nonce of the page's scripts (a new one per response, server.ts);
 * - the CSRF token of the page's forms (the visitor's own, from their cookie; a new one, with its
 *   cookie, for a first visit);
 * - every form's idempotency key (a new one per response).
 * The render that fills the cache records each of these values as it makes them (`recordVolatile`,
 * through an AsyncLocalStorage shared by the server and the build's copy of this module); the page
 * is kept as the text between them, and each answer from the cache is that text joined by fresh
 * values of the same kinds.
 *
 * What is never kept (invariants, checked when a render ends):
 * - a render for a signed-in user, or one that showed a one-time message (the root loader marks
 *   such a render uncacheable: `markUncacheable`);
 * - an answer other than a 200 HTML page, one that set a cookie other than the CSRF token's, one
 *   whose stream failed, or one that was not a GET of a listed path;
 * - anything past PAGE_CACHE_MS: entries are dropped when read after their time, and the cache
 *   holds at most MAX_ENTRIES pages (the oldest go first), so random query strings cannot grow it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/** The per-response values a cached page is rendered with, by kind. */
export type VolatileKind = "nonce" | "csrf" | "key";

/** What one render records for the cache. */
interface Recorder {
  volatile: Map<string, VolatileKind>;
  uncacheable: boolean;
}

/** One store for the server and the build (two copies of this module, one process). */
const STORE_KEY = Symbol.for("tradepost.visitorPageCache.recorder");
const globalStore = globalThis as unknown as Record<
  symbol,
  AsyncLocalStorage<Recorder> | undefined
>;
const recorderStore: AsyncLocalStorage<Recorder> = (globalStore[STORE_KEY] ??=
  new AsyncLocalStorage<Recorder>());

/** Records a value of this response that another visitor's copy must not share. */
export function recordVolatile(value: string, kind: VolatileKind): void {
  const r = recorderStore.getStore();
  if (r && value) r.volatile.set(value, kind);
}

/** Marks the render under way as one person's own (signed in, a one-time message): never kept. */
export function markUncacheable(): void {
  const r = recorderStore.getStore();
  if (r) r.uncacheable = true;
}

/** Most pages kept at once. */
export const MAX_ENTRIES = 256;

/** A kept page: its text between the per-response values, and the kinds of those values. */
interface Entry {
  parts: string[];
  slots: VolatileKind[];
  headers: [string, string][];
  expiresAtMs: number;
}

/** Headers of the render that every copy of the page keeps (the rest are per response). */
const KEPT_HEADERS = ["content-type", "cache-control", "content-language"];

export interface VisitorPageCacheOptions {
  /** How long a page is kept (ms); 0 turns the cache off. */
  ttlMs: number;
  /** The paths whose signed-out pages are kept (exact pathnames). */
  paths: readonly string[];
  /** The CSRF cookie's name (its value is not part of the key: the token is put in per response). */
  csrfCookieName: string;
  /** Cookies that make a request someone's own (a session): such requests skip the cache. */
  bypassCookieNames: readonly string[];
  /** The token for a visitor's forms, and the Set-Cookie value when it is new (csrf.server.ts). */
  commitCsrf: (cookieHeader: string) => Promise<readonly [string, string | null]>;
  now?: () => number;
}

/** The request's cookies without the CSRF token's, sorted: the same visitor state, the same key. */
function cookieKey(header: string | undefined, csrfCookieName: string): string {
  if (!header) return "";
  return header
    .split(";")
    .map((c) => c.trim())
    .filter((c) => c && !c.startsWith(`${csrfCookieName}=`))
    .sort()
    .join("; ");
}

/** Splits a page at every recorded value it holds (a page without one is a single part). */
function templateOf(
  html: string,
  volatile: Map<string, VolatileKind>,
): Pick<Entry, "parts" | "slots"> {
  const values = [...volatile.keys()].filter((v) => html.includes(v));
  if (values.length === 0) return { parts: [html], slots: [] };
  const pattern = new RegExp(
    values.map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|"),
    "g",
  );
  const parts: string[] = [];
  const slots: VolatileKind[] = [];
  let last = 0;
  for (const m of html.matchAll(pattern)) {
    parts.push(html.slice(last, m.index));
    slots.push(volatile.get(m[0])!);
    last = m.index + m[0].length;
  }
  parts.push(html.slice(last));
  return { parts, slots };
}

/**
 * Express middleware in front of the Remix handler: answers a signed-out visitor's GET of a listed
 * path from the cache, else lets the handler render it and keeps the page when it may be kept.
 */
export function visitorPageCache(options: VisitorPageCacheOptions) {
  const now = options.now ?? Date.now;
  const paths = new Set(options.paths);
  const bypass = options.bypassCookieNames.map((name) => `${name}=`);
  const entries = new Map<string, Entry>();

  const keep = (key: string, entry: Entry) => {
    entries.delete(key);
    entries.set(key, entry);
    while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  };

  const answer = async (req: Request, res: Response, entry: Entry) => {
    const [csrf, csrfCookie] = await options.commitCsrf(req.headers.cookie ?? "");
    const fresh: Record<VolatileKind, () => string> = {
      nonce: () => res.locals.nonce as string,
      csrf: () => csrf,
      key: () => crypto.randomUUID(),
    };
    let html = entry.parts[0]!;
    for (let i = 0; i < entry.slots.length; i++)
      html += fresh[entry.slots[i]!]() + entry.parts[i + 1];
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    if (csrfCookie) res.append("Set-Cookie", csrfCookie);
    // Says to an operator (and a test) that this answer was not rendered for it.
    res.setHeader("X-Page-Cache", "hit");
    res.status(200).end(html);
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (options.ttlMs <= 0 || req.method !== "GET" || !paths.has(req.path)) return next();
    const cookies = req.headers.cookie ?? "";
    if (bypass.some((name) => cookies.includes(name))) return next();
    const key = [
      req.protocol,
      req.headers.host ?? "",
      req.originalUrl,
      cookieKey(cookies, options.csrfCookieName),
      req.headers["accept-language"] ?? "",
    ].join("\n");
    const hit = entries.get(key);
    if (hit && hit.expiresAtMs > now()) {
      answer(req, res, hit).catch(next);
      return;
    }
    if (hit) entries.delete(key);
    render(req, res, next, (html, recorder) => {
      if (recorder.uncacheable || res.statusCode !== 200) return;
      if (!String(res.getHeader("content-type") ?? "").startsWith("text/html")) return;
      if (!onlyCsrfCookie(res.getHeader("set-cookie"), options.csrfCookieName)) return;
      recorder.volatile.set(res.locals.nonce as string, "nonce");
      const headers: [string, string][] = [];
      for (const name of KEPT_HEADERS) {
        const v = res.getHeader(name);
        if (typeof v === "string") headers.push([name, v]);
      }
      keep(key, {
        ...templateOf(html, recorder.volatile),
        headers,
        expiresAtMs: now() + options.ttlMs,
      });
    });
  };
}

/** True when every cookie the answer sets is the CSRF token's. */
function onlyCsrfCookie(
  header: ReturnType<Response["getHeader"]>,
  csrfCookieName: string,
): boolean {
  if (header === undefined) return true;
  const list = Array.isArray(header) ? header : [String(header)];
  return list.every((c) => c.startsWith(`${csrfCookieName}=`));
}

/**
 * Lets the handler render the page with a recorder, collecting what it writes; `done` gets the page
 * when the answer ended whole (not when the connection closed first or the stream failed).
 */
function render(
  req: Request,
  res: Response,
  next: NextFunction,
  done: (html: string, recorder: Recorder) => void,
): void {
  const recorder: Recorder = { volatile: new Map(), uncacheable: false };
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array),
    );
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, ...args: unknown[]) {
    collect(args[0], args[1]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof res.write;
  res.end = function (this: Response, ...args: unknown[]) {
    collect(args[0], args[1]);
    return (end as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.end;
  res.on("finish", () => {
    if (!res.writableFinished) return;
    done(Buffer.concat(chunks).toString("utf8"), recorder);
  });
  recorderStore.run(recorder, () => next());
}
