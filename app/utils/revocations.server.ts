/**
 * Sign-outs the upstream has not confirmed yet. Signing out always ends the web session at once;
 * when the upstream cannot be reached to revoke the token, the token is kept and the revocation is
 * retried with back-off (1 s doubling to 60 s) until the upstream answers. A token the upstream no
 * longer knows (code 999) counts as revoked. Entries older than the session cookie's lifetime are
 * dropped: by then the upstream has ended the token itself.
 *
 * Where they are kept:
 * - one web node (DATABASE_URL unset): DATA_DIR/pending-revocations.json, mode 600, so that a
 *   restart of the web does not forget them; this node retries them. Each token is kept sealed
 *   (token-seal.server.ts: AES-256-GCM under a key from SESSION_SECRET), never as it is: the file,
 *   or a backup of DATA_DIR, lets nobody sign in. (A file an earlier version wrote with plain
 *   tokens is read once and written again sealed.)
 * - cluster mode (DATABASE_URL): the PostgreSQL table web_pending_signouts, so that any node
 *   retries them and none is lost when a node dies (app/utils/revocations-shared.server.ts).
 *
 * Invariant: a token leaves the list only after the upstream confirmed it is no longer valid, or
 * after MAX_AGE_MS.
 */
import fs from "node:fs";
import path from "node:path";
import { CODE } from "@contract/envelope";
import * as identityApi from "@contract/api/identity";
import { env, sessionSecrets } from "~/utils/env.server";
import { getSession } from "~/utils/session.server";
import { send, type Caller } from "~/upstream/client.server";
import { webDb } from "~/utils/web-db.server";
import { SharedRevocations } from "~/utils/revocations-shared.server";
import { tokenSeal, type TokenSeal } from "~/utils/token-seal.server";

const REVOCATIONS_FILE = "pending-revocations.json";
const MAX_AGE_MS = 30 * 24 * 3600_000;
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;
/** Cluster mode: how often each node looks for sign-outs due for another try. */
const SHARED_POLL_MS = 1_000;
/** Cluster mode: sign-outs one node takes in one pass at most. */
const SHARED_BATCH = 100;

interface Pending {
  token: string;
  since: number;
}

interface State {
  pending: Pending[];
  timer: NodeJS.Timeout | null;
  delayMs: number;
  running: boolean;
  loaded: boolean;
}

const GLOBAL_KEY = "__tradepostRevocations";

function state(): State {
  const g = globalThis as unknown as Record<string, State | undefined>;
  g[GLOBAL_KEY] ??= {
    pending: [],
    timer: null,
    delayMs: FIRST_RETRY_MS,
    running: false,
    loaded: false,
  };
  return g[GLOBAL_KEY];
}

function file(): string {
  return path.join(env().dataDir, REVOCATIONS_FILE);
}

/** The file's seal: SESSION_SECRET's (every secret opens, the first seals). */
function fileSeal(): TokenSeal {
  return tokenSeal(sessionSecrets());
}

/** One kept entry of the file as it was read: sealed (now), or plain (an earlier version). */
function tokenOf(entry: unknown, seal: TokenSeal): Pending | null {
  if (!entry || typeof entry !== "object") return null;
  const e = entry as { sealed?: unknown; token?: unknown; since?: unknown };
  if (typeof e.since !== "number") return null;
  if (typeof e.sealed === "string") {
    const token = seal.open(e.sealed);
    return token === null ? null : { token, since: e.since };
  }
  return typeof e.token === "string" ? { token: e.token, since: e.since } : null;
}

function load(s: State): void {
  if (s.loaded) return;
  s.loaded = true;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file(), "utf8"));
  } catch {
    return; // none kept yet (or unreadable: nothing to resume)
  }
  if (!Array.isArray(raw)) return;
  const seal = fileSeal();
  for (const entry of raw) {
    const p = tokenOf(entry, seal);
    if (p) s.pending.push(p);
  }
  // A file of plain tokens (an earlier version) is written again at once, sealed.
  if (raw.some((e) => e && typeof e === "object" && "token" in e)) save(s);
}

function save(s: State): void {
  const target = file();
  if (s.pending.length === 0) {
    fs.rmSync(target, { force: true });
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const seal = fileSeal();
  const kept = s.pending.map((p) => ({ sealed: seal.seal(p.token), since: p.since }));
  const tmp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
  fs.renameSync(tmp, target);
}

async function revokeAtUpstream(token: string): Promise<"done" | "retry"> {
  const request = new Request("http://tradepost.invalid/logout");
  const c: Caller = { request, lang: "en", token, session: await getSession(request) };
  const r = await send(c, identityApi.logout, {}, { init: true, soft: true });
  if (r.ok || r.code === CODE.SESSION_INVALID) return "done";
  return "retry";
}

function schedule(s: State): void {
  if (s.timer || s.pending.length === 0) return;
  s.timer = setTimeout(() => {
    s.timer = null;
    void retryPendingRevocations();
  }, s.delayMs);
  s.timer.unref();
}

/** File mode: keeps `token` in DATA_DIR and retries it from this node. */
function queueInFile(token: string, now: number): void {
  const s = state();
  load(s);
  if (!s.pending.some((p) => p.token === token)) s.pending.push({ token, since: now });
  save(s);
  s.delayMs = FIRST_RETRY_MS;
  schedule(s);
  console.warn(
    JSON.stringify({
      svc: "web",
      msg: "sign-out not confirmed by the upstream; revocation will be retried",
      pending: s.pending.length,
    }),
  );
}

/** Tries every kept revocation once; keeps the ones the upstream could not take and retries later. */
async function retryPendingRevocations(now = Date.now()): Promise<number> {
  const s = state();
  load(s);
  if (s.running) return s.pending.length;
  s.running = true;
  try {
    const done = new Set<Pending>();
    for (const p of [...s.pending]) {
      if (now - p.since > MAX_AGE_MS || (await revokeAtUpstream(p.token)) === "done") done.add(p);
    }
    // Sign-outs queued while this pass ran stay in the list.
    s.pending = s.pending.filter((p) => !done.has(p));
    save(s);
    s.delayMs = s.pending.length ? Math.min(s.delayMs * 2, MAX_RETRY_MS) : FIRST_RETRY_MS;
    schedule(s);
    return s.pending.length;
  } finally {
    s.running = false;
  }
}

const SHARED_KEY = "__tradepostSharedRevocations";

/** Cluster mode's shared list (null without DATABASE_URL); one per process. */
function shared(): SharedRevocations | null {
  const url = env().databaseUrl;
  if (!url) return null;
  const g = globalThis as unknown as Record<string, SharedRevocations | undefined>;
  const seal = tokenSeal(sessionSecrets());
  g[SHARED_KEY] ??= new SharedRevocations(
    () => webDb(url, seal),
    revokeAtUpstream,
    {
      pollMs: SHARED_POLL_MS,
      firstRetryMs: FIRST_RETRY_MS,
      maxRetryMs: MAX_RETRY_MS,
      maxAgeMs: MAX_AGE_MS,
      batch: SHARED_BATCH,
    },
    seal,
  );
  return g[SHARED_KEY];
}

/** Keeps `token` for revocation once the upstream is back (after a sign-out it could not reach). */
export async function queueRevocation(token: string, now = Date.now()): Promise<void> {
  const list = shared();
  if (list) {
    await list.add(token, now);
    console.warn(
      JSON.stringify({
        svc: "web",
        msg: "sign-out not confirmed by the upstream; revocation will be retried by any web node",
      }),
    );
  } else queueInFile(token, now);
}

/**
 * Resumes the revocations kept by an earlier run (called once when the app loads); in cluster mode,
 * starts this node's share of the retries of every node's sign-outs.
 */
export function resumePendingRevocations(): void {
  const list = shared();
  if (list) {
    list.start();
    return;
  }
  const s = state();
  load(s);
  schedule(s);
}
