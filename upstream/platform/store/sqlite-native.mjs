/**
 * SQLite's native module (better-sqlite3's `better_sqlite3.node`) is built for this machine on its
 * first use, not by `npm install` (package.json `allowScripts` denies its install script; decision
 * 0028). Where no prebuilt binary can be downloaded, that script compiles SQLite from source: about
 * a minute on one core (half a minute as built here), during which the install has nothing else
 * to do. Built here instead, it runs beside other work: `npm test` builds it in the background
 * while the static checks run, and `npm start`, a command or a test that opens a SQLite store
 * builds it at that moment.
 *
 * The build is the package's own install script (`prebuild-install || node-gyp rebuild --release`):
 * a machine that can reach GitHub downloads the prebuilt binary, any other compiles it. A built
 * module is kept in the machine's build cache (cachedModulePath): the next clone on the same
 * machine copies it in a moment.
 *
 * Several processes (vitest's workers, a second upstream) may ask at once: one builds, holding
 * `build.lock` in the package's folder (it holds the builder's pid); the others wait until the lock
 * is gone. A lock whose process has died is taken over, and what it left half-built is removed.
 *
 *   node upstream/platform/store/sqlite-native.mjs           # builds it when it is missing
 *   node upstream/platform/store/sqlite-native.mjs --force   # compiles it again (another Node)
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const PACKAGE_DIR = path.dirname(require.resolve("better-sqlite3/package.json"));
const BUILD_DIR = path.join(PACKAGE_DIR, "build");
/** Where better-sqlite3 (through `bindings`) looks first for its native module. */
const SQLITE_BINDING = path.join(BUILD_DIR, "Release", "better_sqlite3.node");
const LOCK = path.join(PACKAGE_DIR, "build.lock");
const WAIT_STEP_MS = 200;
const pause = new Int32Array(new SharedArrayBuffer(4));
/** Once found built, the module stays built for the life of the process. */
let knownReady = false;

/** The pid written in the lock, or null when there is no lock. */
function lockHolder() {
  try {
    return Number(fs.readFileSync(LOCK, "utf8")) || 0;
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
}

function alive(pid) {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

/** True when this process took the lock; a dead holder's lock is removed first. */
function takeLock() {
  const holder = lockHolder();
  if (holder !== null && alive(holder)) return false;
  if (holder !== null) {
    fs.rmSync(LOCK, { force: true });
    fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  }
  try {
    fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" });
    return true;
  } catch (err) {
    if (err.code === "EEXIST") return false;
    throw err;
  }
}

/** Built: the module is there and nobody is writing it. */
function sqliteNativeReady() {
  return fs.existsSync(SQLITE_BINDING) && lockHolder() === null;
}

/**
 * SQLite's extensions that better-sqlite3 compiles in and the store never uses (full-text search,
 * R-Tree and Geopoly, the dbstat table, STAT4 statistics, which only ANALYZE writes, percentile,
 * soundex), left out of a build from source: about a third of its compile time.
 */
const UNUSED_FEATURES = [
  "FTS3",
  "FTS3_PARENTHESIS",
  "FTS4",
  "FTS5",
  "GEOPOLY",
  "RTREE",
  "DBSTAT_VTAB",
  "STAT4",
  "PERCENTILE",
]
  .map((f) => `-USQLITE_ENABLE_${f}`)
  .concat("-USQLITE_SOUNDEX");

/** The compile flags of a build from source. */
const CFLAGS = ["-O2", ...UNUSED_FEATURES].join(" ");
const CXXFLAGS = "-O2";

/**
 * The machine's cache of built modules, shared by every clone of the project on it, as npm's own
 * cache holds packages: a new clone copies the module a clone before it built instead of compiling
 * it again. A file's name holds a digest of everything the binary depends on: the package's
 * version, Node's module ABI, the platform, the architecture and the compile flags, so a cached
 * module is only ever used where it was built for. TRADEPOST_BUILD_CACHE names the folder (default
 * `$XDG_CACHE_HOME/tradepost`, else `~/.cache/tradepost`); `none` turns the cache off.
 */
function cachedModulePath() {
  const configured = process.env.TRADEPOST_BUILD_CACHE;
  if (configured === "none") return null;
  const dir =
    configured ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "tradepost");
  const { version } = require("better-sqlite3/package.json");
  const key = crypto
    .createHash("sha256")
    .update(
      JSON.stringify([
        version,
        process.versions.modules,
        process.platform,
        process.arch,
        CFLAGS,
        CXXFLAGS,
      ]),
    )
    .digest("hex")
    .slice(0, 16);
  return path.join(dir, `better_sqlite3-${version}-${key}.node`);
}

/** Copies `from` to `to` through a temporary file beside `to`: a reader never sees half a file. */
function copyWhole(from, to) {
  const tmp = `${to}.${process.pid}.tmp`;
  fs.copyFileSync(from, tmp);
  fs.renameSync(tmp, to);
}

/**
 * True when the machine's cache held the module and it is now in place. A cached file that does
 * not load (damaged on disk) is removed, and the module is compiled instead.
 */
function fromCache(cached, log) {
  if (!cached || !fs.existsSync(cached)) return false;
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(SQLITE_BINDING), { recursive: true });
  copyWhole(cached, SQLITE_BINDING);
  try {
    require(SQLITE_BINDING);
  } catch (err) {
    log(`The build cache's ${cached} does not load (${err.message}): compiling instead.`);
    fs.rmSync(cached, { force: true });
    return false;
  }
  log(`SQLite's native module is taken from this machine's build cache (${cached}).`);
  return true;
}

/** Keeps a fresh build in the machine's cache; a cache that cannot be written is left alone. */
function toCache(cached) {
  if (!cached) return;
  try {
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    copyWhole(SQLITE_BINDING, cached);
  } catch {
    // A read-only or full home: the next clone compiles again, nothing else changes.
  }
}

/**
 * Puts the module in place: from the machine's cache when it holds this build (unless `force`),
 * else by running the package's install script, whose output is shown only when it fails. A
 * compile from source uses -O2, SQLite's own default (as fast as the package's -O3 here: inserts,
 * point reads and range scans measured alike), without UNUSED_FEATURES: 33 s instead of 58.
 */
function build(log, force) {
  const cached = cachedModulePath();
  if (!force && fromCache(cached, log)) return;
  log("Building SQLite's native module for this machine (once; about half a minute)…");
  const started = Date.now();
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
  try {
    execFileSync("npm", ["run", "--silent", "install"], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, CFLAGS, CXXFLAGS },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (err) {
    const output = `${err.stdout ?? ""}${err.stderr ?? ""}`
      .trim()
      .split("\n")
      .slice(-40)
      .join("\n");
    throw new Error(`Building SQLite's native module failed (in ${PACKAGE_DIR}):\n${output}`);
  }
  if (!fs.existsSync(SQLITE_BINDING)) throw new Error(`The build left no ${SQLITE_BINDING}`);
  toCache(cached);
  log(`SQLite's native module is built (${Math.round((Date.now() - started) / 1000)} s).`);
}

/**
 * Returns once SQLite's native module is built: at once when it is, else after building it or
 * waiting for the process that builds it. `force` builds it again even when it is there.
 */
export function ensureSqliteNative({ force = false, log = (line) => console.error(line) } = {}) {
  if (knownReady && !force) return;
  let rebuild = force;
  while (rebuild || !sqliteNativeReady()) {
    if (takeLock()) {
      try {
        if (rebuild || !fs.existsSync(SQLITE_BINDING)) build(log, force);
        rebuild = false;
      } finally {
        fs.rmSync(LOCK, { force: true });
      }
    } else {
      Atomics.wait(pause, 0, 0, WAIT_STEP_MS);
    }
  }
  knownReady = true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureSqliteNative({ force: process.argv.includes("--force") });
}
