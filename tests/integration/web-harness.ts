/**
 * Shared set-up of the web's integration tests: the real server.ts (built Remix app, embedded
 * upstream) started as a child process on free loopback ports with a fresh temporary DATA_DIR,
 * its log lines collected, and helpers to sign in through the demo form.
 */
import { execSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { generate } from "otplib";
import { startMessageSink, waitForCode, type MessageSink } from "../support/message-sink";
import { freePort } from "../../scripts/services/ports.js";
import { copySqliteMarketTemplate } from "../support/store-templates";
import { nodeArgsFor } from "../support/node-bundle";

// import.meta.url rather than __dirname: the benchmarks (tsx, ES modules) start the web through this too.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsStale(): boolean {
  const built = path.join(ROOT, "build/index.js");
  return !fs.existsSync(built) || fs.statSync(built).mtimeMs < newestMtime(path.join(ROOT, "app"));
}

/**
 * Builds the Remix app when build/index.js (what server.ts serves) is missing or older than app/.
 * Test files run in parallel: a lock folder lets one build while the others wait for it.
 */
export function ensureBuild(): void {
  const lock = path.join(os.tmpdir(), `tradepost-build-${Buffer.from(ROOT).toString("hex")}.lock`);
  const deadline = Date.now() + 170_000;
  while (buildIsStale()) {
    try {
      fs.mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`another build holds ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      // A production build, as server.ts runs it (vitest's NODE_ENV=test would make a development one).
      if (buildIsStale())
        execSync("npx remix build", {
          cwd: ROOT,
          stdio: "ignore",
          env: { ...process.env, NODE_ENV: "production" },
        });
    } finally {
      fs.rmdirSync(lock);
    }
  }
}

// The web tests import it from here along with the rest of the harness.
export { freePort };

export interface WebServer {
  proc: ChildProcess;
  /** http://127.0.0.1:PORT of the web. */
  base: string;
  /** http://127.0.0.1:UPSTREAM_PORT of the embedded upstream. */
  upstreamBase: string;
  dataDir: string;
  /** The SMTP server and SMS gateway its upstream delivers codes to (production has no dev outbox). */
  sink: MessageSink;
  /** Every stdout and stderr line so far. */
  lines: string[];
  /** Resolves with the first line (already seen or to come) matching `re`. */
  waitForLine(re: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** Resolves with the exit code and signal; `null` when it did not exit within `timeoutMs`. */
  exited(timeoutMs: number): Promise<{ code: number | null; signal: string | null } | null>;
  /** Stops the web (SIGTERM, then SIGKILL) and any upstream it logged, removes DATA_DIR unless kept. */
  close(): Promise<void>;
}

export async function startWeb(
  opts: {
    env?: Record<string, string>;
    dataDir?: string;
    keepDataDir?: boolean;
    /** Node options of the web process only (a benchmark's --cpu-prof), not of its upstream. */
    nodeArgs?: string[];
  } = {},
): Promise<WebServer> {
  ensureBuild();
  const port = await freePort();
  let upstreamPort = await freePort();
  while (upstreamPort === port) upstreamPort = await freePort();
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "tradepost-web-"));
  // A new embedded upstream on SQLite starts from the run's market template (store-templates.ts)
  // rather than writing the default market's history itself.
  const ownStore = opts.env?.DATABASE_URL || opts.env?.UPSTREAM_DB || opts.env?.MARKET_SEED;
  if (!opts.dataDir && !ownStore) copySqliteMarketTemplate(path.join(dataDir, "upstream.sqlite"));
  const sink = await startMessageSink();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    UPSTREAM_PORT: String(upstreamPort),
    UPSTREAM_URL: "",
    DATA_DIR: dataDir,
    MARKET_ALWAYS_OPEN: "1",
    RATE_LIMIT: "0",
    SMTP_URL: sink.smtpUrl,
    SMS_WEBHOOK_URL: sink.smsWebhookUrl,
    COOKIE_SECURE: "0",
    LOG_LEVEL: "warn",
    SESSION_SECRET: "",
    ...opts.env,
  };
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...nodeArgsFor("server")], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; from: number; resolve: (l: string) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters])
      if (w.re.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
  };
  readline.createInterface({ input: proc.stdout! }).on("line", onLine);
  readline.createInterface({ input: proc.stderr! }).on("line", onLine);
  let exit: { code: number | null; signal: string | null } | null = null;
  const exitPromise = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    proc.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    }),
  );

  const waitForLine = (re: RegExp, timeoutMs = 60_000, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.slice(from).find((l) => re.test(l));
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        reject(
          new Error(`no log line matching ${re} within ${timeoutMs} ms:\n${lines.join("\n")}`),
        );
      }, timeoutMs);
      waiters.push({
        re,
        from,
        resolve: (l) => {
          clearTimeout(timer);
          resolve(l);
        },
      });
    });

  const exited = (timeoutMs: number) =>
    Promise.race([
      exitPromise,
      new Promise<null>((r) => setTimeout(() => r(null), timeoutMs).unref()),
    ]);

  const close = async () => {
    const pids = lines
      .map((l) => /"upstreamPid":(\d+)/.exec(l)?.[1])
      .filter(Boolean)
      .map(Number);
    if (!exit) {
      proc.kill("SIGTERM");
      if (!(await exited(15_000))) proc.kill("SIGKILL");
      await exitPromise;
    }
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    await sink.close();
    if (!opts.keepDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  await Promise.race([
    waitForLine(/"msg":"web listening"/, 90_000),
    exitPromise.then(async (e) => {
      await sink.close();
      throw new Error(`server.ts exited (${JSON.stringify(e)}):\n${lines.join("\n")}`);
    }),
  ]);
  return {
    proc,
    base: `http://127.0.0.1:${port}`,
    upstreamBase: `http://127.0.0.1:${upstreamPort}`,
    dataDir,
    sink,
    lines,
    waitForLine,
    exited,
    close,
  };
}

/**
 * The reference upstream run alone (upstream/main.ts) on loopback `port` with its store in
 * `dataDir`, as a web's UPSTREAM_URL names it: resolves once it reports UPSTREAM_READY. Started
 * again on the same port and folder, it is the same upstream back from an outage.
 */
export function spawnUpstream(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, nodeArgsFor("upstream"), {
    cwd: ROOT,
    env: {
      ...process.env,
      UPSTREAM_HOST: "127.0.0.1",
      UPSTREAM_PORT: String(port),
      DATA_DIR: dataDir,
      MARKET_ALWAYS_OPEN: "1",
      MARKET_TICK_MS: "250",
      RATE_LIMIT: "0",
      DEV_OUTBOX: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  readline.createInterface({ input: child.stderr! }).on("line", (l) => output.push(l));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`upstream not ready in 60 s:\n${output.join("\n")}`)),
      60_000,
    );
    readline.createInterface({ input: child.stdout! }).on("line", (l) => {
      output.push(l);
      if (l.startsWith("UPSTREAM_READY")) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`upstream exited (${code}):\n${output.join("\n")}`));
    });
  });
}

/** Kills `child` with SIGKILL (a crash: nothing of it runs any more); resolves once it is gone. */
export function killProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** The name=value pairs of a response's Set-Cookie headers, merged into `jar`. */
export function keepCookies(res: Response, jar: Map<string, string>): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

export function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

/**
 * Signs in with a new demo account through the login page's form, posted to /login?from=`from`
 * (raw, already encoded); the POST's response (not followed) and the cookie jar.
 */
export async function demoSignIn(
  base: string,
  from: string,
): Promise<{ res: Response; jar: Map<string, string> }> {
  return postPageForm(base, "/login", { intent: "demo" }, { action: `/login?from=${from}` });
}

/** Registers an e-mail account at the web's upstream over its API (the code from the mail it sent). */
export async function registerEmailOverApi(
  web: Pick<WebServer, "upstreamBase" | "sink">,
  email: string,
  password: string,
): Promise<void> {
  const upstreamBase = web.upstreamBase;
  const post = async (p: string, body: Record<string, string | number>) =>
    (await (
      await fetch(upstreamBase + p, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
      })
    ).json()) as { code: number; msg: string };
  const sent = await post("/api/notify/send_email", { to: email, type: 1 });
  if (sent.code !== 1) throw new Error(`send_email refused: ${sent.msg}`);
  const reg = await post("/api/user/register", {
    type: "email",
    account: email,
    password,
    re_password: password,
    sms_code: await waitForCode(web.sink.httpUrl, email),
  });
  if (reg.code !== 1) throw new Error(`register refused: ${reg.msg}`);
}

/**
 * Posts a page's form as a browser without JavaScript does: GET `path` for its CSRF token and
 * cookies, then POST `fields` with them (same origin) to `action` (default `path`); the POST's
 * response (not followed) and the cookie jar.
 */
export async function postPageForm(
  base: string,
  path: string,
  fields: Record<string, string>,
  opts: { jar?: Map<string, string>; action?: string } = {},
): Promise<{ res: Response; jar: Map<string, string> }> {
  const jar = opts.jar ?? new Map<string, string>();
  const page = await fetch(base + path, {
    redirect: "manual",
    headers: { cookie: cookieHeader(jar) },
  });
  keepCookies(page, jar);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error(`no csrf token on ${path} (${page.status})`);
  const res = await postForm(base, opts.action ?? path, { csrf, ...fields }, jar);
  return { res, jar };
}

/** POSTs `fields` to `base` + `action` as a browser without JavaScript does; keeps the cookies. */
export async function postForm(
  base: string,
  action: string,
  fields: Record<string, string>,
  jar: Map<string, string>,
): Promise<Response> {
  const res = await fetch(base + action, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieHeader(jar),
      origin: base,
    },
    body: new URLSearchParams(fields).toString(),
  });
  keepCookies(res, jar);
  return res;
}

/**
 * Approves a pending four-eyes request at the web's embedded upstream as a second operator: an
 * admin account made with the operator command against the web's DATA_DIR, signed in with its
 * password and current code, as a colleague would.
 */
export async function approveAsSecondOperator(web: WebServer, requestId: number): Promise<void> {
  const done = await upstreamPost(
    web,
    `/admin/api/requests/${requestId}/approve`,
    { remark: "Checked (second operator)" },
    await secondOperatorToken(web),
  );
  if (done.code !== 1) throw new Error(`request ${requestId} not approved: ${done.msg}`);
}

/** A form POST to the web's embedded upstream, with an operator's bearer token; the envelope. */
async function upstreamPost(
  web: WebServer,
  p: string,
  body: Record<string, string>,
  token?: string,
): Promise<{ code: number; msg: string; data: any }> {
  const res = await fetch(web.upstreamBase + p, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: new URLSearchParams(body).toString(),
  });
  return (await res.json()) as { code: number; msg: string; data: any };
}

/** The second operator of each web: made and signed in once, on first use. */
const secondOperators = new WeakMap<WebServer, Promise<string>>();
function secondOperatorToken(web: WebServer): Promise<string> {
  let token = secondOperators.get(web);
  if (!token) {
    token = signInNewAdmin(web);
    secondOperators.set(web, token);
  }
  return token;
}

/**
 * An operator account made with the operator command (`npm run operator -- add`) against the web's
 * DATA_DIR: its name, its password and its TOTP secret, as the command prints them once.
 */
export function newOperatorAccount(
  web: WebServer,
  role = "admin",
): { name: string; password: string; secret: string } {
  const name = `op-${process.pid}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const added = spawnSync(
    process.execPath,
    [...nodeArgsFor("operator"), "add", name, "--role", role],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: web.dataDir, UPSTREAM_DB: "" },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  const password = /Password \(shown once\): (\S+)/.exec(added.stdout)?.[1];
  const secret = /secret=([A-Z2-7]+)/.exec(added.stdout)?.[1];
  if (!password || !secret) throw new Error(`operator add failed: ${added.stdout}${added.stderr}`);
  return { name, password, secret };
}

/** A new admin of the web's store, signed in at the upstream's operator API; its session token. */
async function signInNewAdmin(web: WebServer): Promise<string> {
  const { name, password, secret } = newOperatorAccount(web);
  const login = await upstreamPost(web, "/admin/api/login", {
    name,
    password,
    code: await generate({ secret }),
  });
  if (login.code !== 1) throw new Error(`second operator sign-in refused: ${login.msg}`);
  return login.data.token as string;
}

/**
 * Shows every hidden coin deposit channel and bank account of the web's embedded upstream
 * (migration 025 hides the seeded ones): `operatorToken` (the web's OPERATOR_TOKEN) asks, the
 * web's second operator approves, as a broker's team would before opening.
 */
export async function showSeededDeposits(web: WebServer, operatorToken: string): Promise<void> {
  for (const noun of ["charge_channels", "wire_accounts"]) {
    const list = (await (
      await fetch(`${web.upstreamBase}/admin/api/${noun}`, {
        headers: { authorization: `Bearer ${operatorToken}` },
      })
    ).json()) as { data: { id: number; enabled: number }[] };
    for (const entry of list.data.filter((e) => !e.enabled)) {
      const r = await upstreamPost(
        web,
        `/admin/api/${noun}/${entry.id}`,
        { enabled: "1" },
        operatorToken,
      );
      if (r.code !== 1) throw new Error(`showing ${noun} ${entry.id} refused: ${r.msg}`);
      if (r.data?.pending_request) await approveAsSecondOperator(web, r.data.pending_request.id);
    }
  }
}
