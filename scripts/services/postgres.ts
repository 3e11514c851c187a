/**
 * A PostgreSQL server of Debian's package (postgresql), started in a directory of its own for the
 * cluster (`npm run cluster`) and the tests: initdb, then `postgres` on a loopback port with its
 * socket in the same directory. The server runs as the `postgres` system user when this process is
 * root (PostgreSQL refuses to run as root), as this process's user otherwise. `scripts/ensure-
 * services.sh` installs the package when it is missing.
 *
 * `fsync` is off only when asked (`durable: false`, the tests: their data dies with the run, and a
 * crash of the operating system is not what they test); a cluster keeps PostgreSQL's defaults
 * (fsync on, synchronous_commit on).
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./ports.js";

// Kept for the modules that import it from here (scripts/services/nats.ts among them).
export { freePort };

export interface PostgresServer {
  /** postgres://tradepost@127.0.0.1:PORT/tradepost */
  url: string;
  port: number;
  dir: string;
  pid: number;
  /** Makes an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** Directory for the data and the socket (default: a new temporary one, removed on stop). */
  dir?: string;
  port?: number;
  /** false: fsync off (tests only). Default true. */
  durable?: boolean;
  /** Where the server's output goes (default: ignored). */
  logFile?: string;
}

const ROLE = "tradepost";

/** The directory of Debian's PostgreSQL binaries (the newest installed), or PG_BIN. */
export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error(
      "PostgreSQL is not installed: run `bash scripts/ensure-services.sh` (as root it installs Debian's postgresql), or set PG_BIN.",
    );
  return path.join(root, versions[0], "bin");
}

function asServerUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

/** A fast shutdown that has not ended after this long (ms) becomes an immediate one. */
const STOP_FAST_MS = 15_000;
/** An immediate shutdown that has not ended after this long (ms) is ended by SIGKILL. */
const STOP_IMMEDIATE_MS = 10_000;

export async function startPostgres(o: PostgresOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const owned = o.dir === undefined;
  const dir = o.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "tradepost-pg-"));
  const data = path.join(dir, "data");
  const user = asServerUser();
  fs.mkdirSync(dir, { recursive: true });
  if (user.uid !== undefined) fs.chownSync(dir, user.uid, user.gid!);
  if (!fs.existsSync(path.join(data, "PG_VERSION"))) {
    execFileSync(
      path.join(bin, "initdb"),
      ["-D", data, "-U", ROLE, "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
      { stdio: "ignore", ...user },
    );
  }
  const port = o.port ?? (await freePort());
  const args = ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"];
  if (o.durable === false) args.push("-c", "fsync=off", "-c", "full_page_writes=off");
  const out = o.logFile ? fs.openSync(o.logFile, "a") : "ignore";
  const child: ChildProcess = spawn(path.join(bin, "postgres"), args, {
    stdio: ["ignore", out, out],
    ...user,
  });
  const base = `postgres://${ROLE}@127.0.0.1:${port}`;
  await waitReady(`${base}/postgres`, child);
  await mustBeOurs(`${base}/postgres`, data, child);
  await ensureDatabase(`${base}/postgres`, ROLE);
  let stopped: Promise<void> | null = null;
  return {
    url: `${base}/${ROLE}`,
    port,
    dir,
    pid: child.pid!,
    async createDatabase(name) {
      await ensureDatabase(`${base}/postgres`, name);
      return `${base}/${name}`;
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const escalate = [
          // A backend that cannot end (one stopped by a signal, or stuck in the kernel) holds the
          // fast shutdown forever: immediate shutdown, then the server's own kill, never a hang.
          setTimeout(() => child.kill("SIGQUIT"), STOP_FAST_MS),
          setTimeout(() => child.kill("SIGKILL"), STOP_FAST_MS + STOP_IMMEDIATE_MS),
        ];
        child.once("exit", () => {
          escalate.forEach(clearTimeout);
          resolve();
        });
        child.kill("SIGINT"); // fast shutdown: ends connections, then a checkpoint
      }).then(() => {
        if (owned) fs.rmSync(dir, { recursive: true, force: true });
      });
      return stopped;
    },
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with code ${child.exitCode}`);
    const c = new pg.Client({ connectionString: url });
    try {
      await c.connect();
      await c.end();
      return;
    } catch (err) {
      await c.end().catch(() => undefined);
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Refuses a server that answers on the port but is not the one just started (a leftover). */
async function mustBeOurs(url: string, data: string, child: ChildProcess): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ data_directory: string }>("SHOW data_directory");
    if (child.exitCode !== null || path.resolve(r.rows[0].data_directory) !== path.resolve(data))
      throw new Error(
        `another PostgreSQL server answers on ${url}; stop it or choose another port`,
      );
  } finally {
    await c.end();
  }
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (r.rowCount === 0) await c.query(`CREATE DATABASE ${name}`);
  } finally {
    await c.end();
  }
}
