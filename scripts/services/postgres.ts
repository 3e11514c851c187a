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
  /** Makes an empty database (owned by `owner`, default the superuser) and answers its URL. */
  createDatabase(name: string, owner?: string): Promise<string>;
  /**
   * Makes a login role that is no superuser (or sets its password when it exists), member of
   * `inRole` when given, with CONNECT on `database`; answers its URL to that database.
   */
  createRole(
    name: string,
    password: string,
    o: { database: string; inRole?: string },
  ): Promise<string>;
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
  /**
   * The superuser's password: every connection then authenticates with scram-sha-256 (npm run
   * cluster). Without it, connections on loopback are trusted (the tests' own server).
   */
  superuserPassword?: string;
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
  const password = o.superuserPassword;
  if (!fs.existsSync(path.join(data, "PG_VERSION"))) {
    const auth = password === undefined ? ["-A", "trust"] : ["-A", "scram-sha-256"];
    const pwfile = path.join(dir, "initdb-password");
    if (password !== undefined) {
      fs.writeFileSync(pwfile, password + "\n", { mode: 0o600 });
      if (user.uid !== undefined) fs.chownSync(pwfile, user.uid, user.gid!);
    }
    try {
      execFileSync(
        path.join(bin, "initdb"),
        [
          "-D",
          data,
          "-U",
          ROLE,
          ...auth,
          ...(password === undefined ? [] : [`--pwfile=${pwfile}`]),
          "-E",
          "UTF8",
          "--no-locale",
          "--no-sync",
        ],
        { stdio: "ignore", ...user },
      );
    } finally {
      fs.rmSync(pwfile, { force: true });
    }
  } else if (password !== undefined && /^\s*(local|host)\S*\s.*\btrust\s*$/m.test(hbaOf(data)))
    throw new Error(
      `${data} was made with trust authentication by an earlier release: remove it (or use another DATA_DIR) so that it is made again with passwords`,
    );
  const port = o.port ?? (await freePort());
  const args = ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"];
  if (o.durable === false) args.push("-c", "fsync=off", "-c", "full_page_writes=off");
  const out = o.logFile ? fs.openSync(o.logFile, "a") : "ignore";
  const child: ChildProcess = spawn(path.join(bin, "postgres"), args, {
    stdio: ["ignore", out, out],
    ...user,
  });
  const host = `127.0.0.1:${port}`;
  const base =
    password === undefined
      ? `postgres://${ROLE}@${host}`
      : `postgres://${ROLE}:${encodeURIComponent(password)}@${host}`;
  await waitReady(`${base}/postgres`, child);
  await mustBeOurs(`${base}/postgres`, data, child);
  await ensureDatabase(`${base}/postgres`, ROLE);
  let stopped: Promise<void> | null = null;
  return {
    url: `${base}/${ROLE}`,
    port,
    dir,
    pid: child.pid!,
    async createDatabase(name, owner) {
      await ensureDatabase(`${base}/postgres`, name, owner);
      return `${base}/${name}`;
    },
    async createRole(name, rolePassword, ro) {
      await ensureRole(`${base}/postgres`, name, rolePassword, ro);
      return `postgres://${name}:${encodeURIComponent(rolePassword)}@${host}/${ro.database}`;
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

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

async function ensureDatabase(adminUrl: string, name: string, owner?: string): Promise<void> {
  if (!IDENTIFIER.test(name)) throw new Error(`bad database name ${name}`);
  if (owner !== undefined && !IDENTIFIER.test(owner)) throw new Error(`bad role name ${owner}`);
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const r = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (r.rowCount === 0)
      await c.query(`CREATE DATABASE ${name}${owner === undefined ? "" : ` OWNER ${owner}`}`);
    // The server's own first database (named as the superuser) exists from the start.
    else if (owner !== undefined) await c.query(`ALTER DATABASE ${name} OWNER TO ${owner}`);
  } finally {
    await c.end();
  }
}

/** A login role, no superuser, its password (re)set; member of `inRole`; CONNECT on `database`. */
async function ensureRole(
  adminUrl: string,
  name: string,
  password: string,
  o: { database: string; inRole?: string },
): Promise<void> {
  for (const id of [name, o.database, ...(o.inRole ? [o.inRole] : [])])
    if (!IDENTIFIER.test(id)) throw new Error(`bad identifier ${id}`);
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const exists = await c.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [name]);
    // The password goes in as a literal the server itself quotes: never spliced by hand.
    const literal = (await c.query<{ l: string }>("SELECT quote_literal($1) AS l", [password]))
      .rows[0].l;
    await c.query(
      `${exists.rowCount ? "ALTER" : "CREATE"} ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${literal}`,
    );
    if (o.inRole) {
      const group = await c.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [o.inRole]);
      if (group.rowCount === 0) await c.query(`CREATE ROLE ${o.inRole} NOLOGIN`);
      await c.query(`GRANT ${o.inRole} TO ${name}`);
    }
    await c.query(`GRANT CONNECT ON DATABASE ${o.database} TO ${name}`);
  } finally {
    await c.end();
  }
}

/** The server's client authentication file. */
function hbaOf(data: string): string {
  const file = path.join(data, "pg_hba.conf");
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}
