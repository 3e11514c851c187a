/**
 * Shared set-up of the integration tests: a real upstream built in process on a fresh store (a
 * temporary SQLite file, or a new PostgreSQL database in the PostgreSQL runs: test-store.ts),
 * listening on a free port, optionally priced by the manual feed, and small HTTP helpers
 * that read the envelope.
 */
import fs from "node:fs";
import sharp from "sharp";
import os from "node:os";
import path from "node:path";
import { buildUpstream, type Upstream } from "../../upstream/app.js";
import { loadConfig, type UpstreamConfig } from "../../upstream/platform/config.js";
import { secretKeyDir } from "../../upstream/platform/config.js";
import { loadSecretKey } from "../../upstream/platform/secret-box.js";
import { newUpstreamStore, type UpstreamStore } from "../support/test-store.js";
import { createOperator, currentCode } from "../../upstream/modules/operators/accounts.js";
import { isPendingApproval } from "@contract/api/admin";
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
  /** Its temporary data folder (uploads; the SQLite store's file), removed by close. */
  dir: string;
  /** Its store: a SQLite file in `dir`, or a PostgreSQL database of its own (PostgreSQL runs). */
  store: UpstreamStore;
  /** The manual price feed, when started with `manualFeed: true` (else null: the simulator). */
  feed: ManualFeed | null;
  /**
   * Moves the manual feed's price of `code` and waits until what the tick set off (its TP/SL,
   * pending and stop-out bookings, copy trading's stop-losses: commands of the sequencer) is
   * written and announced.
   */
  tick(code: string, price: number): Promise<void>;
  /** Waits until every command queued on the leader's sequencer so far is written and answered. */
  settled(): Promise<void>;
  get<T = any>(p: string, opts?: RequestOptions): Promise<Env<T>>;
  post<T = any>(
    p: string,
    body?: Record<string, string | number>,
    opts?: RequestOptions & { json?: boolean },
  ): Promise<Env<T>>;
  /**
   * Changes a setting through the operator API (the checked path an operator takes); a four-eyes
   * setting is approved by a second operator (an admin account the harness makes once).
   */
  setting(key: string, value: string): Promise<void>;
  /** Approves a pending four-eyes request as that second operator; the approved request. */
  approve(id: number): Promise<unknown>;
  /**
   * Posts to the operator API as that second operator: another person than OPERATOR_TOKEN, as when
   * the one who credited a user's deposit today may not pay that user out.
   */
  asApprover<T = any>(p: string, body?: Record<string, string | number>): Promise<Env<T>>;
  close(): Promise<void>;
}

/** The operator token every harness upstream has unless a test sets its own (or none). */
export const HARNESS_OPERATOR_TOKEN = "harness-operator-token-0123456789";

export interface StartOptions {
  /** Config over the test defaults (port 0, a new store, no rate limit). */
  config?: Partial<UpstreamConfig>;
  /** The store of an earlier upstream (a restart on the same store); default: a new one. */
  store?: UpstreamStore;
  /** Price with the manual feed (createManualFeed) instead of the simulator. */
  manualFeed?: boolean;
  /** Options of that manual feed (e.g. `alwaysOpen: false` for the market-hours calendar). */
  manualFeedOptions?: ManualFeedOptions;
  /** Prefix of the temporary folder's name. */
  tmpPrefix?: string;
  /**
   * The seeded deposit channels and bank account start hidden (migration 025), as on a fresh
   * install ("hidden", the default). "shown" has the harness's operators show them through the
   * operator API, a second operator approving, as a broker does before opening.
   */
  seededDeposits?: "shown" | "hidden";
}

export async function startUpstream(opts: StartOptions = {}): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), opts.tmpPrefix ?? "tp-up-"));
  // A new SQLite file in `dir`, or a new PostgreSQL database when the run is on PostgreSQL; with
  // the run's market template (the default seed's history) unless the hand-driven feed, without
  // history, prices it or the test sets its own seed.
  const store =
    opts.store ??
    newUpstreamStore(path.join(dir, "up.sqlite"), {
      market:
        opts.config?.seed === undefined &&
        (!opts.manualFeed || opts.manualFeedOptions?.history === true),
    });
  const config = loadConfig({} as NodeJS.ProcessEnv, {
    port: 0,
    ...store.config,
    dataDir: dir,
    rateLimit: false,
    operatorToken: HARNESS_OPERATOR_TOKEN,
    checkAnswers: true,
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
  let approver: Promise<string> | null = null;
  /** A second operator (an admin account of this store), signed in once. */
  const approverToken = () =>
    (approver ??= (async () => {
      const key = loadSecretKey(config.operatorSecretKey, secretKeyDir(config));
      const op = await createOperator(up.ctx.db, key, "harness-approver", "admin");
      const r = await postEnv(base, "/admin/api/login", {
        name: op.name,
        password: op.password,
        code: await currentCode(op.secret),
      });
      if (r.code !== 1) throw new Error(`the harness's second operator cannot sign in: ${r.msg}`);
      return (r.data as { token: string }).token;
    })());
  const approve = async (id: number) => {
    const r = await postEnv(
      base,
      `/admin/api/requests/${id}/approve`,
      { remark: "Checked (harness second operator)" },
      { headers: { authorization: `Bearer ${await approverToken()}` } },
    );
    if (r.code !== 1) throw new Error(`request ${id} not approved: ${r.msg}`);
    return r.data;
  };
  const server: Server = {
    up,
    base,
    dir,
    store,
    feed,
    async tick(code, price) {
      if (!feed) throw new Error("tick needs the manual feed (manualFeed: true)");
      feed.set(code, price);
      await up.ctx.sequencer.idle();
    },
    settled: () => up.ctx.sequencer.idle(),
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
      if (isPendingApproval(r.data)) await approve(r.data.pending_request.id);
    },
    approve,
    asApprover: async (p, body) =>
      postEnv(base, p, body, {
        headers: { authorization: `Bearer ${await approverToken()}` },
      }),
    async close() {
      const drifts = up.ctx.hub.frameDrifts();
      await up.close();
      fs.rmSync(dir, { recursive: true, force: true });
      // A frame that drifted was not sent: the test that needed it may still have passed.
      if (drifts > 0)
        throw new Error(`${drifts} websocket frame(s) drifted from contract/ws.ts (see the log)`);
    },
  };
  if (opts.seededDeposits === "shown") {
    if (!config.operatorToken) throw new Error("seededDeposits: shown needs an operator token");
    await showSeededDeposits(server, config.operatorToken);
  }
  return server;
}

/**
 * Shows every hidden coin deposit channel and bank account through the operator API (the
 * operator token asks, the harness's second operator approves): what a broker does once the
 * catalogue holds its own details.
 */
export async function showSeededDeposits(s: Server, operatorToken: string): Promise<void> {
  const auth = { headers: { authorization: `Bearer ${operatorToken}` } };
  for (const noun of ["charge_channels", "wire_accounts"]) {
    const list = await s.get<{ id: number; enabled: number }[]>(`/admin/api/${noun}`, auth);
    for (const entry of list.data.filter((e) => !e.enabled)) {
      const r = await asTeam(s, s.post(`/admin/api/${noun}/${entry.id}`, { enabled: 1 }, auth));
      if (r.code !== 1) throw new Error(`showing ${noun} ${entry.id} refused: ${r.msg}`);
    }
  }
}

/**
 * An operator action as a team carries it out: when the upstream files it for a second operator
 * (four-eyes), the harness's second operator approves it, and the answer carries what the action
 * itself answered. Other answers pass through.
 */
export async function asTeam<T = any>(s: Server, answer: Promise<Env<T>>): Promise<Env<T>> {
  const r = await answer;
  if (r.code !== 1 || !isPendingApproval(r.data)) return r;
  const done = (await s.approve(r.data.pending_request.id)) as { result: T };
  return { ...r, data: done.result };
}

/**
 * A coin deposit of `usd` declared by the account of `token`, as a user declares one: a real JPEG
 * proof uploaded, then submitted on the first channel offered. Its id (pending review).
 */
export async function declareDeposit(s: Server, token: string, usd: string): Promise<number> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#09c" } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "proof.jpg");
  const up = (await (
    await fetch(`${s.base}/api/common/image_upload`, {
      method: "POST",
      headers: { authorization: token },
      body: form,
    })
  ).json()) as { code: number; msg: string; data: { name: string } };
  if (up.code !== 1) throw new Error(`proof upload refused: ${up.msg}`);
  const info = await s.get("/api/quickCharge/info", { token });
  const c = await s.post(
    "/api/quickCharge/submit",
    { number: usd, proofImg: up.data.name, charge_id: info.data.channels[0].id },
    { token },
  );
  if (c.code !== 1) throw new Error(`deposit refused: ${c.msg}`);
  return c.data.id as number;
}
