/**
 * Production server of the web: Express with the built Remix app (build/index.js), static files,
 * compression that never buffers event streams, security headers with a per-request nonce CSP and
 * graceful shutdown (bounded: SHUTDOWN_GRACE_MS plus 5 s at most). When UPSTREAM_URL is not set it
 * starts the embedded reference upstream (upstream/main.ts) as a child process on loopback, waits
 * for its "UPSTREAM_READY <url>" line, and restarts it with back-off whenever it dies.
 *
 * Environment: read and validated by app/utils/env.server.ts (PORT, HOST, UPSTREAM_URL, UPSTREAM_PORT,
 * NODE_ENV, SESSION_SECRET, DATA_DIR, TRUST_PROXY, CSP_FRAME_SRC, SHUTDOWN_GRACE_MS, ...); an invalid
 * value stops start-up with a message naming the variable. The embedded upstream reads its own (it
 * shares DATA_DIR). Without SESSION_SECRET the session secret is generated once in DATA_DIR.
 *
 * Cluster mode (DATABASE_URL, several web nodes behind a load balancer): SESSION_SECRET must be set
 * (env.server.ts refuses to start without it), and the web's tables in that database are created
 * at start when missing (app/utils/web-db.server.ts); a database that cannot be reached within
 * 30 s stops start-up.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { spawn, type ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import type { Server } from "node:http";
import express, { type Request, type Response } from "express";
import compression from "compression";
import helmet from "helmet";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import { EnvError, loadEnv, loadOrCreateSessionSecret, type Env } from "./app/utils/env.server";
import { operatorHostGate } from "./app/utils/operator-host.server";
import { desktopRedirect } from "./app/utils/desktop.server";
import { chatFrameSource } from "./app/utils/chat-frame.server";
import { lingerAfterAnswer } from "./app/utils/lingering-close.server";
import { prepareWebDatabase } from "./app/utils/web-db.server";
import { tokenSeal } from "./app/utils/token-seal.server";
import { compressedAssets } from "./app/utils/compressed-assets.server";
import { visitorPageCache } from "./app/utils/visitor-page-cache.server";
import { commitCsrfToken, csrfCookieName } from "./app/utils/csrf.server";
import { sessionCookieName } from "./app/utils/session.server";

function readEnv(): Env {
  try {
    return loadEnv();
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

const ENV = readEnv();
const PORT = ENV.port;
const HOST = ENV.host;
const isProduction = ENV.isProduction;
const GRACE_MS = ENV.shutdownGraceMs;

function log(msg: string, extra: Record<string, unknown> = {}) {
  console.log(JSON.stringify({ time: new Date().toISOString(), svc: "web", msg, ...extra }));
}

// Without SESSION_SECRET: the secret kept in DATA_DIR, generated on the first start (the app's
// sessionSecrets() reads the same file).
if (ENV.sessionSecrets.length === 0) {
  try {
    const kept = loadOrCreateSessionSecret(ENV.dataDir);
    log(
      kept.created
        ? "SESSION_SECRET is not set: generated a new session secret"
        : "SESSION_SECRET is not set: using the session secret kept in DATA_DIR",
      { file: kept.file },
    );
  } catch (err) {
    console.error(`Cannot keep a session secret in DATA_DIR: ${(err as Error).message}`);
    process.exit(1);
  }
}

// ---------------------------------------------------------------- embedded upstream
/** Restart back-off of the embedded upstream: first delay, doubling up to the longest. */
const RESTART_FIRST_MS = 500;
const RESTART_MAX_MS = 15_000;
/** An upstream that ran this long before dying restarts after the first delay again. */
const RESTART_RESET_AFTER_MS = 60_000;
/** Connections the kernel may queue for accept (Node's default is 511). */
const LISTEN_BACKLOG = 4096;
/** The pages a signed-out visitor may be answered from the visitors' page cache (decision 0045). */
const VISITOR_CACHED_PATHS = ["/", "/trade"];
/** A shutdown ends within SHUTDOWN_GRACE_MS plus this, whatever hangs. */
const SHUTDOWN_BOUND_MS = 5_000;

interface Embedded {
  child: ChildProcess;
  startedAt: number;
  /** Resolves once the child has exited (also when that happened before anyone waits). */
  exited: Promise<void>;
  hasExited: boolean;
}

let upstream: Embedded | null = null;
let shuttingDown = false;
let restartDelayMs = RESTART_FIRST_MS;
let restartTimer: NodeJS.Timeout | null = null;

/** Set (true) only in a bundle of this file (tests/support/node-bundle.ts). */
declare const __TRADEPOST_BUNDLED__: boolean | undefined;

/**
 * How the embedded upstream is started: its TypeScript source through tsx; from a bundle of this
 * file (the test suite's), the upstream's bundle beside it.
 */
function upstreamEntry(): string[] {
  if (typeof __TRADEPOST_BUNDLED__ !== "undefined" && __TRADEPOST_BUNDLED__)
    return ["--enable-source-maps", path.join(path.dirname(process.argv[1]!), "upstream.mjs")];
  return ["--import", "tsx", "upstream/main.ts"];
}

/** Starts the embedded upstream; resolves with the URL from its "UPSTREAM_READY <url>" line. */
async function startEmbeddedUpstream(): Promise<string> {
  const port = ENV.upstreamPort;
  const child = spawn(process.execPath, upstreamEntry(), {
    cwd: process.cwd(),
    env: { ...process.env, UPSTREAM_HOST: "127.0.0.1", UPSTREAM_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const emb: Embedded = {
    child,
    startedAt: Date.now(),
    hasExited: false,
    exited: new Promise<void>((resolve) =>
      child.once("exit", () => {
        emb.hasExited = true;
        resolve();
      }),
    ),
  };
  upstream = emb;
  log("embedded upstream started", { upstreamPid: child.pid });
  return new Promise<string>((resolve, reject) => {
    let ready = false;
    const timer = setTimeout(() => {
      if (ready) return;
      reject(new Error("the embedded upstream did not report UPSTREAM_READY within 60 s"));
      child.kill("SIGKILL");
    }, 60_000);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^UPSTREAM_READY (\S+)/.exec(line);
      if (m && !ready) {
        ready = true;
        clearTimeout(timer);
        resolve(m[1]);
      }
      process.stdout.write(line + "\n");
    });
    readline
      .createInterface({ input: child.stderr! })
      .on("line", (line) => process.stderr.write(line + "\n"));
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (!ready) {
        reject(
          new Error(
            `the embedded upstream exited before it was ready (code ${code}, signal ${signal})`,
          ),
        );
        return;
      }
      if (!shuttingDown)
        scheduleUpstreamRestart({ code, signal, ranMs: Date.now() - emb.startedAt });
    });
  });
}

/**
 * After the embedded upstream died: the web stays up (pages show the upstream's absence) and starts
 * it again after a back-off delay (0.5 s doubling to 15 s; back to 0.5 s after a run of a minute).
 */
function scheduleUpstreamRestart(details: {
  code?: number | null;
  signal?: string | null;
  ranMs: number;
  error?: string;
}) {
  if (shuttingDown || restartTimer) return;
  if (details.ranMs >= RESTART_RESET_AFTER_MS) restartDelayMs = RESTART_FIRST_MS;
  const delay = restartDelayMs;
  restartDelayMs = Math.min(restartDelayMs * 2, RESTART_MAX_MS);
  log("embedded upstream exited unexpectedly; restarting it", { ...details, restartInMs: delay });
  restartTimer = setTimeout(() => {
    restartTimer = null;
    if (shuttingDown) return;
    const startedAt = Date.now();
    startEmbeddedUpstream().then(
      (url) => {
        process.env.UPSTREAM_URL = url;
        log("embedded upstream restarted", { url, upstreamPid: upstream?.child.pid });
      },
      (err: Error) => {
        if (!shuttingDown)
          scheduleUpstreamRestart({ ranMs: Date.now() - startedAt, error: err.message });
      },
    );
  }, delay);
}

/** Stops the embedded upstream: SIGTERM, SIGKILL at `killAt` (ms epoch, at least 1 s later). */
async function stopEmbeddedUpstream(killAt: number) {
  const emb = upstream;
  if (!emb || emb.hasExited) return;
  emb.child.kill("SIGTERM");
  const kill = setTimeout(
    () => {
      if (!emb.hasExited) emb.child.kill("SIGKILL");
    },
    Math.max(1000, killAt - Date.now()),
  );
  await emb.exited;
  clearTimeout(kill);
}

// ---------------------------------------------------------------- app
/** Browser features no page of the web uses, refused on every response. */
const PERMISSIONS_POLICY = [
  "camera=()",
  "microphone=()",
  "geolocation=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "hid=()",
  "bluetooth=()",
  "midi=()",
  "magnetometer=()",
  "gyroscope=()",
  "accelerometer=()",
  "display-capture=()",
  "publickey-credentials-get=()",
].join(", ");

function routePaths(build: ServerBuild): string[] {
  const routes = build.routes as Record<
    string,
    { id: string; parentId?: string; path?: string; index?: boolean }
  >;
  const full = (id: string | undefined): string => {
    if (!id) return "";
    const r = routes[id];
    if (!r) return "";
    const parent = full(r.parentId);
    return r.path ? `${parent}/${r.path}`.replace(/\/+/g, "/") : parent;
  };
  const out = new Set<string>();
  for (const r of Object.values(routes)) {
    if (r.id === "root") continue;
    out.add(full(r.id) || "/");
  }
  return [...out].sort();
}

let server: Server | null = null;

type LiveHandler = (
  req: import("node:http").IncomingMessage,
  res: import("node:http").ServerResponse,
  clientIp: string,
) => Promise<void>;

async function shutdown(reason: string, exitCode = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  const started = Date.now();
  if (restartTimer) clearTimeout(restartTimer);
  log("shutting down", { reason });
  // Whatever hangs (a connection, the upstream), the process ends within the bound.
  setTimeout(() => {
    log("shutdown did not finish in time; exiting now", { reason });
    process.exit(exitCode);
  }, GRACE_MS + SHUTDOWN_BOUND_MS);
  const force = setTimeout(() => {
    server?.closeAllConnections();
  }, GRACE_MS);
  force.unref();
  const closing = server?.listening
    ? new Promise<void>((resolve) => {
        server!.close(() => resolve());
        server!.closeIdleConnections();
        // Event streams never finish on their own: end them now so that clients reconnect elsewhere.
        setTimeout(() => server?.closeAllConnections(), Math.min(1000, GRACE_MS)).unref();
      })
    : Promise.resolve();
  await closing;
  await stopEmbeddedUpstream(started + GRACE_MS);
  process.exit(exitCode);
}

async function main() {
  if (ENV.databaseUrl) {
    try {
      // Cluster mode requires SESSION_SECRET (env.server.ts): its first secret seals kept tokens.
      await prepareWebDatabase(ENV.databaseUrl, tokenSeal(ENV.sessionSecrets));
    } catch (err) {
      console.error(`Cannot use DATABASE_URL: ${(err as Error).message}`);
      process.exit(1);
    }
    log("cluster mode: shared state in DATABASE_URL");
  }
  if (ENV.upstreamUrls.length > 0) {
    process.env.UPSTREAM_URL = ENV.upstreamUrls.join(",");
  } else {
    log("UPSTREAM_URL is not set: starting the embedded upstream");
    // The embedded upstream is this release's own: its answers are not checked against the
    // contract (the tests turn the check on, CHECK_ANSWERS=1, on both sides).
    process.env.CHECK_ANSWERS ??= "0";
    process.env.UPSTREAM_URL = await startEmbeddedUpstream();
    log("embedded upstream ready", { url: process.env.UPSTREAM_URL });
  }

  const buildPath = path.resolve("build/index.js");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const paths = routePaths(build);

  const app = express();
  app.disable("x-powered-by");
  if (ENV.trustProxy) app.set("trust proxy", ENV.trustProxy);

  // The browser's event stream, written straight to the connection by the app's own handler (the
  // built entry module's serveLive shares the app's one live bridge); no Remix route serves /live.
  // It comes before the document middlewares: an event stream is no page (no CSP nonce, frame or
  // desktop redirect applies to it, and it is never compressed), and a reconnect storm of
  // thousands of streams should cost each only its admission.
  const serveLive = (build.entry.module as { serveLive?: LiveHandler }).serveLive;
  if (typeof serveLive !== "function")
    throw new Error("build/index.js does not export serveLive (app/entry.server.tsx)");
  app.get("/live", (req, res, next) => {
    serveLive(req, res, req.ip ?? req.socket.remoteAddress ?? "").catch(next);
  });

  app.use((req, res, next) => {
    res.locals.nonce = crypto.randomBytes(16).toString("base64");
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    // A body refused as too large (413) is answered before it is read to its end: the connection
    // closes after the answer, so its unread rest is never taken for the next request, and it
    // closes lingering (app/utils/lingering-close.server.ts), so the client reads that answer.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      if (args[0] === 413 && !req.complete) {
        this.setHeader("Connection", "close");
        lingerAfterAnswer(req);
      }
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  });

  // frame-src: CSP_FRAME_SRC plus the support chat's origin while basicSet opens it in a frame.
  const chatFrame = chatFrameSource(() => process.env.UPSTREAM_URL, ENV.chatFrameCacheMs);
  app.use((_req, res, next) => {
    chatFrame.get().then(
      (origin) => {
        res.locals.chatFrame = origin;
        next();
      },
      () => next(),
    );
  });
  const frameSrc = (res: Response): string => {
    const list = [...ENV.cspFrameSrc];
    const chat = res.locals.chatFrame as string | null | undefined;
    if (chat && !list.includes(chat)) list.push(chat);
    return list.length ? list.join(" ") : "'none'";
  };
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.nonce}'`],
          // No inline styles: every style comes from the fingerprinted style sheet.
          styleSrc: ["'self'"],
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'", "data:"],
          connectSrc: ["'self'"],
          frameSrc: [(_req, res) => frameSrc(res as Response)],
          frameAncestors: ["'none'"],
          formAction: ["'self'"],
          objectSrc: ["'none'"],
          manifestSrc: ["'self'"],
          workerSrc: ["'self'", "blob:"],
        },
      },
      hsts: isProduction,
      crossOriginEmbedderPolicy: false,
      // Not helmet's default "no-referrer": with it browsers send `Origin: null` on same-site form
      // POSTs, which Remix's action CSRF check rejects (500 on every form without JavaScript).
      referrerPolicy: { policy: "same-origin" },
    }),
  );

  app.use(
    compression({
      filter: (req, res) => {
        const type = String(res.getHeader("Content-Type") || "");
        if (type.includes("text/event-stream")) return false;
        return compression.filter(req, res);
      },
    }),
  );

  // Fingerprinted build assets: cached for a year, never revalidated; scripts and style sheets
  // compressed once per process (compressed-assets.server.ts), the rest as files.
  app.use(
    "/build",
    compressedAssets("public/build"),
    express.static("public/build", { immutable: true, maxAge: "1y", index: false }),
  );
  // Other public files (icons, manifest): short cache. Only paths under one of public/'s own entries
  // reach the file server, so a page request costs no file-system lookup.
  const publicFiles = express.static("public", { maxAge: "1h", index: false });
  const publicNames = new Set(fs.readdirSync("public").filter((name) => name !== "build"));
  app.use((req, res, next) => {
    const first = req.path.split("/", 2)[1] ?? "";
    if (publicNames.has(first)) publicFiles(req, res, next);
    else next();
  });

  // Liveness only: tells nothing about the configuration (no upstream address, no versions).
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });

  // The console on its own host name, and nothing else there (OPERATOR_HOST; unset: one host).
  app.use(operatorHostGate(ENV.operatorHost));

  // Desktop browsers go to the desktop site unless the visitor chose to stay (desktop.server.ts).
  app.use(desktopRedirect({ desktopUrl: ENV.desktopUrl, secure: ENV.secureCookies }));

  // The client's address for the upstream's per-client limits (X-Forwarded-For on upstream calls).
  // Always overwritten here, so a browser cannot choose it; TRUST_PROXY decides what req.ip means.
  app.use((req, _res, next) => {
    req.headers["x-tradepost-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "";
    next();
  });

  // A signed-out visitor's home and trade pages, rendered once per PAGE_CACHE_MS for every visitor
  // with the same address, cookies and language; the nonce, CSRF token and form keys are each
  // answer's own (app/utils/visitor-page-cache.server.ts, decision 0045).
  app.use(
    visitorPageCache({
      ttlMs: ENV.pageCacheMs,
      paths: VISITOR_CACHED_PATHS,
      csrfCookieName: csrfCookieName(),
      bypassCookieNames: [sessionCookieName()],
      commitCsrf: (cookie) => commitCsrfToken(new Headers(cookie ? { cookie } : {})),
    }),
  );

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: isProduction ? "production" : "development",
      getLoadContext: (_req: Request, res: Response) => ({
        nonce: res.locals.nonce as string,
        routePaths: paths,
      }),
    }),
  );

  // A deep accept queue: thousands of event streams reconnecting at once (a restart, a network
  // change on a mobile carrier) must wait for accept, not be reset (the kernel caps it at somaxconn).
  server = app.listen(PORT, HOST, LISTEN_BACKLOG, () => {
    log("web listening", {
      url: `http://${HOST === "0.0.0.0" ? "localhost" : HOST}:${PORT}`,
      upstream: process.env.UPSTREAM_URL,
    });
  });
  server.keepAliveTimeout = 65_000;
}

for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => void shutdown(sig));

main().catch((err) => {
  console.error(err);
  void shutdown("startup-failure", 1);
});
