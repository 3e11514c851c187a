/**
 * Shared set-up of the integration tests: a real upstream built in process on a fresh temporary
 * store (listening on a free port), optionally priced by the manual feed, and small HTTP helpers
 * that read the envelope.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildUpstream, type Upstream } from "../../upstream/app.js";
import { loadConfig, type UpstreamConfig } from "../../upstream/platform/config.js";
import {
  createManualFeed,
  type ManualFeed,
  type ManualFeedOptions,
} from "../../upstream/modules/market/manual-feed.js";

export interface Env<T = any> {
  code: number;
  msg: string;
  data: T;
}

export interface RequestOptions {
  /** Sent as the authorization header. */
  token?: string;
  /** Sent as the lang header. */
  lang?: string;
  /** More headers (e.g. idempotency-key). */
  headers?: Record<string, string>;
}

function headersOf(opts: RequestOptions = {}): Record<string, string> {
  const h: Record<string, string> = { ...opts.headers };
  if (opts.token) h.authorization = opts.token;
  if (opts.lang) h.lang = opts.lang;
  return h;
}

/** GET base + p; the envelope. */
export async function getEnv<T = any>(
  base: string,
  p: string,
  opts?: RequestOptions,
): Promise<Env<T>> {
  const r = await fetch(base + p, { headers: headersOf(opts) });
  return (await r.json()) as Env<T>;
}

/** POST base + p with a form body (or JSON with `json`); the envelope. */
export async function postEnv<T = any>(
  base: string,
  p: string,
  body: Record<string, string | number> = {},
  opts: RequestOptions & { json?: boolean } = {},
): Promise<Env<T>> {
  const h = headersOf(opts);
  let payload: string;
  if (opts.json) {
    h["content-type"] = "application/json";
    payload = JSON.stringify(body);
  } else {
    h["content-type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
  }
  const r = await fetch(base + p, { method: "POST", headers: h, body: payload });
  return (await r.json()) as Env<T>;
}

export interface Server {
  up: Upstream;
  /** http://host:port of the upstream. */
  base: string;
  /** The temporary folder of its store (removed by close). */
  dir: string;
  /** The manual price feed, when started with `manualFeed: true` (else null: the simulator). */
  feed: ManualFeed | null;
  get<T = any>(p: string, opts?: RequestOptions): Promise<Env<T>>;
  post<T = any>(
    p: string,
    body?: Record<string, string | number>,
    opts?: RequestOptions & { json?: boolean },
  ): Promise<Env<T>>;
  /** Changes a setting through the operator API (the checked path an operator takes). */
  setting(key: string, value: string): Promise<void>;
  close(): Promise<void>;
}

/** The operator token every harness upstream has unless a test sets its own (or none). */
export const HARNESS_OPERATOR_TOKEN = "harness-operator-token-0123456789";

export interface StartOptions {
  /** Config over the test defaults (port 0, a temp dbFile, no rate limit). */
  config?: Partial<UpstreamConfig>;
  /** Price with the manual feed (createManualFeed) instead of the simulator. */
  manualFeed?: boolean;
  /** Options of that manual feed (e.g. `alwaysOpen: false` for the market-hours calendar). */
  manualFeedOptions?: ManualFeedOptions;
  /** Prefix of the temporary folder's name. */
  tmpPrefix?: string;
}

export async function startUpstream(opts: StartOptions = {}): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix ?? "tp-up-"));
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    port: 0,
    dbFile: path.join(dir, "up.sqlite"),
    dataDir: dir,
    rateLimit: false,
    operatorToken: HARNESS_OPERATOR_TOKEN,
    ...opts.config,
  });
  let feed: ManualFeed | null = null;
  const up = await buildUpstream(
    config,
    opts.manualFeed
      ? { feed: (db) => (feed = createManualFeed(db, opts.manualFeedOptions)) }
      : undefined,
  );
  const base = await up.listen();
  return {
    up,
    base,
    dir,
    feed,
    get: (p, o) => getEnv(base, p, o),
    post: (p, body, o) => postEnv(base, p, body, o),
    async setting(key, value) {
      const r = await postEnv(
        base,
        "/admin/api/settings",
        { key, value },
        { headers: { authorization: `Bearer ${config.operatorToken}` } },
      );
      if (r.code !== 1) throw new Error(`setting ${key}=${value} refused: ${r.msg}`);
    },
    async close() {
      await up.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
