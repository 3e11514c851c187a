/**
 * A NATS server of Debian's package (nats-server), started on a loopback port for the cluster
 * (`npm run cluster`: one user per role, each with its own permissions) and the tests (no users),
 * no persistence (core NATS only: the
 * pushes between upstream nodes are fire-and-forget, upstream/platform/ws/broker.ts). `restart()`
 * stops it and starts it again on the same port, so that its clients reconnect to the same URL
 * (the "restart NATS: pushes resume" test). `scripts/ensure-services.sh` installs the package when
 * it is missing.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./postgres.js";

export interface NatsServer {
  /** nats://127.0.0.1:PORT */
  url: string;
  port: number;
  /** The pid of the running server (a restart changes it). */
  readonly pid: number;
  stop(): Promise<void>;
  /** Stops the server and starts a new one on the same port; resolves once it accepts clients. */
  restart(): Promise<void>;
}

/** A NATS user and what it may publish and subscribe to (subjects, `>` and `*` wildcards). */
export interface NatsUser {
  user: string;
  password: string;
  publish: string[];
  subscribe: string[];
}

export interface NatsOptions {
  port?: number;
  /** Where the server's output goes (default: ignored). */
  logFile?: string;
  /**
   * The users the server accepts, each with its own permissions (a configuration file beside the
   * log, mode 600); without them any client on the port may connect and publish (the tests).
   */
  users?: NatsUser[];
  /** Where the configuration file is written when there are users (default: the OS's temp dir). */
  configDir?: string;
}

/** How long a start may take before it counts as failed, ms. */
const READY_TIMEOUT_MS = 15_000;
/** How long a stop waits for the server to exit on SIGTERM before killing it, ms. */
const STOP_GRACE_MS = 5_000;

/** The nats-server binary: NATS_SERVER_BIN, Debian's /usr/sbin/nats-server, or one on the PATH. */
export function natsServerBin(): string {
  const given = process.env.NATS_SERVER_BIN;
  const candidates = given
    ? [given]
    : [
        "/usr/sbin/nats-server",
        ...(process.env.PATH ?? "")
          .split(":")
          .filter(Boolean)
          .map((dir) => `${dir}/nats-server`),
      ];
  const found = candidates.find((bin) => fs.existsSync(bin));
  if (found) return found;
  throw new Error(
    "nats-server is not installed: run `bash scripts/ensure-services.sh` (as root it installs Debian's nats-server), or set NATS_SERVER_BIN.",
  );
}

/** True when a nats-server binary is available (see natsServerBin). */
export function hasNatsServer(): boolean {
  try {
    natsServerBin();
    return true;
  } catch {
    return false;
  }
}

export async function startNats(o: NatsOptions = {}): Promise<NatsServer> {
  const bin = natsServerBin();
  const port = o.port ?? (await freePort());
  const config = o.users?.length ? writeConfig(port, o.users, o.configDir) : null;
  let child = await launch(bin, port, o.logFile, config);
  let stopping: Promise<void> | null = null;
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    get pid() {
      return child.pid!;
    },
    stop() {
      stopping ??= terminate(child);
      return stopping;
    },
    async restart() {
      await terminate(child);
      child = await launch(bin, port, o.logFile, config);
      stopping = null;
    },
  };
}

/**
 * The server's configuration with one user per role: listen on loopback, and an authorization
 * block whose users hold only their own publish and subscribe permissions. JSON is valid NATS
 * configuration syntax, so every password is written quoted whatever it holds.
 */
function writeConfig(port: number, users: NatsUser[], dir = os.tmpdir()): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `nats-${port}.conf`);
  const conf = {
    listen: `127.0.0.1:${port}`,
    authorization: {
      users: users.map((u) => ({
        user: u.user,
        password: u.password,
        // An empty list would mean no limit at all to nats-server: nothing allowed is "deny all".
        permissions: {
          publish: u.publish.length ? u.publish : { deny: [">"] },
          subscribe: u.subscribe.length ? u.subscribe : { deny: [">"] },
        },
      })),
    },
  };
  fs.writeFileSync(file, JSON.stringify(conf, null, 2), { mode: 0o600 });
  return file;
}

/** Starts nats-server on 127.0.0.1:port and waits until it greets a client with its INFO line. */
async function launch(
  bin: string,
  port: number,
  logFile?: string,
  config?: string | null,
): Promise<ChildProcess> {
  const out = logFile ? fs.openSync(logFile, "a") : "ignore";
  const args = config ? ["-c", config] : ["-a", "127.0.0.1", "-p", String(port)];
  const child = spawn(bin, args, {
    stdio: ["ignore", out, out],
  });
  if (typeof out === "number") fs.closeSync(out);
  try {
    await waitReady(port, child);
  } catch (err) {
    await terminate(child);
    throw err;
  }
  return child;
}

/** Resolves once a TCP client of the port receives the server's INFO line. */
async function waitReady(port: number, child: ChildProcess): Promise<void> {
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`nats-server exited with code ${child.exitCode ?? child.signalCode}`);
    if (await greets(port)) return;
    if (Date.now() > until) throw new Error(`nats-server not ready on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function greets(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1_000, () => done(false));
    s.once("error", () => done(false));
    s.once("data", (d) => done(d.toString("latin1").startsWith("INFO ")));
  });
}

/** SIGTERM, then SIGKILL after STOP_GRACE_MS; resolves once the process has exited. */
function terminate(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
