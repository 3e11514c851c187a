/**
 * What the sections of `npm run bench:cluster` (tests/bench/cluster.ts) share: calls of the upstream
 * API over HTTP (envelope `{code, msg, data}`, paths from contract/), a demo account, an operator's
 * setting and price, a reference upstream node as a child process, and small measuring helpers.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { CODE, type Envelope } from "@contract/envelope";
import { createAccountDemoForU, loginForU } from "@contract/api/identity";
import { setSetting } from "@contract/api/admin";
import { marketPrice } from "@contract/api/dev";
import { tradeList, type Instrument } from "@contract/api/market";
import { submit } from "@contract/api/trading";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Paces the bench (polling intervals of bounded waits, tick intervals); asserts nothing. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function log(line: string): void {
  console.log(`[bench:cluster] ${line}`);
}

/**
 * The bench's HTTP client: node:http with kept-alive connections. The clients share the machine's
 * cores with the node they measure, and fetch cost them about as much CPU as the node spent
 * answering (perf, 16 clients, 2 cores): a lighter client leaves the node what it would have on a
 * machine of its own.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

/** One HTTP exchange: the status and the body as text; a transport failure or timeout rejects. */
function exchange(
  url: string,
  method: "GET" | "POST",
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method,
      agent,
      headers:
        body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
      timeout: timeoutMs,
    });
    req.on("timeout", () =>
      req.destroy(new Error(`${method} ${url}: no answer in ${timeoutMs} ms`)),
    );
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.end(body);
  });
}

/** A call of the upstream API; a transport failure or a timeout throws. */
export async function call<T = unknown>(
  base: string,
  method: "GET" | "POST",
  p: string,
  o: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Envelope<T>> {
  const { status, text } = await exchange(
    base + p,
    method,
    { ...(o.body === undefined ? {} : { "content-type": "application/json" }), ...o.headers },
    o.body === undefined ? undefined : JSON.stringify(o.body),
    o.timeoutMs ?? 10_000,
  );
  return envelopeOf<T>(status, text);
}

/** An answer's envelope; a body that is not one becomes code NaN with the status in its message. */
function envelopeOf<T>(status: number, text: string): Envelope<T> {
  try {
    const body = JSON.parse(text) as Partial<Envelope<T>> & { message?: string };
    if (typeof body.code === "number") return body as Envelope<T>;
    return {
      code: NaN,
      msg: `HTTP ${status} ${body.message ?? text.slice(0, 80)}`,
      data: null as T,
    };
  } catch {
    return { code: NaN, msg: `HTTP ${status} ${text.slice(0, 80)}`, data: null as T };
  }
}

/** Throws with the answer's message unless it is code 1. */
export function mustBeOk<T>(what: string, e: Envelope<T>): T {
  if (e.code !== CODE.OK) throw new Error(`${what} refused: ${e.code} ${e.msg}`);
  return e.data;
}

/** A new demo account, signed in: its token. */
export async function demoToken(base: string): Promise<string> {
  const demo = mustBeOk(
    "demo account",
    await call<{ demo_id: string }>(base, "POST", createAccountDemoForU.path, { body: {} }),
  );
  const login = mustBeOk(
    "demo sign-in",
    await call<{ token: string }>(base, "POST", loginForU.path, {
      body: { demo_id: demo.demo_id },
    }),
  );
  return login.token;
}

/** An operator's change of a setting (operator API, admin token). */
export async function operatorSetting(
  base: string,
  operatorToken: string,
  key: string,
  value: string,
): Promise<void> {
  const set = mustBeOk(
    `setting ${key}`,
    await call<{ value?: string }>(base, "POST", setSetting.path, {
      body: { key, value },
      headers: { authorization: `Bearer ${operatorToken}` },
    }),
  );
  // A four-eyes setting answers code 1 too, with a request waiting for a second operator.
  if (set?.value !== value)
    throw new Error(`setting ${key} was not applied: ${JSON.stringify(set)}`);
}

/** A tick of the hand-driven market (MARKET_FEED=manual): answers the tick's time (ms). */
export async function setPrice(
  base: string,
  operatorToken: string,
  code: string,
  price: number,
): Promise<number> {
  const q = mustBeOk(
    `price ${code}`,
    await call<{ time: number }>(base, "POST", marketPrice.path, {
      body: { code, price: String(price) },
      headers: { authorization: `Bearer ${operatorToken}` },
    }),
  );
  return q.time;
}

/** An instrument orders can be placed on: its id, code, price and the order's fields. */
export interface Tradable {
  id: number;
  code: string;
  price: number;
  precision: number;
  lots: string;
  multiple: number;
}

/** The first `count` instruments with leverage options and a price (EURUSD first when listed). */
export async function tradables(base: string, count = 1): Promise<Tradable[]> {
  const list = mustBeOk("trade list", await call<Instrument[]>(base, "GET", tradeList.path));
  return list
    .filter((i) => i.HasForexMultiple.length > 0 && i.ForexQuotations?.Close > 0)
    .sort((a, b) => Number(b.Code === "EURUSD") - Number(a.Code === "EURUSD"))
    .slice(0, count)
    .map((i) => ({
      id: i.Id,
      code: i.Code,
      price: i.ForexQuotations.Close,
      precision: i.PricePrecision,
      lots: String(i.ForexMinCont),
      multiple: i.HasForexMultiple.at(-1)!.Value,
    }));
}

/**
 * One client's own kept-alive HTTP/1.1 connection, for the hot loop of a bench (one request at a
 * time): requests are written as one text and answers read by their Content-Length, without
 * node:http's machinery. Its CPU is shared with the node measured: node:http's client cost 85 us
 * an order, more than half of what the node's main thread spent answering it, and this one 29 us
 * (cpu-use.ts, PostgreSQL, 16 clients). An answer
 * without a Content-Length, or a transport failure, rejects; the next request connects again.
 */
export class KeptConnection {
  private socket: net.Socket | null = null;
  private waiting: {
    resolve: (a: { status: number; text: string }) => void;
    reject: (e: Error) => void;
  } | null = null;
  private chunks: Buffer[] = [];
  private readonly host: string;
  private readonly port: number;

  constructor(base: string) {
    const u = new URL(base);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
  }

  request(
    method: "GET" | "POST",
    p: string,
    headers: string,
    body: string,
    timeoutMs: number,
  ): Promise<{ status: number; text: string }> {
    if (this.waiting) throw new Error("KeptConnection: one request at a time");
    const socket = this.socket ?? this.connect();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(new Error(`${method} ${p}: no answer in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting = {
        resolve: (a) => (clearTimeout(timer), resolve(a)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      };
      socket.write(
        `${method} ${p} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n${headers}` +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connect(): net.Socket {
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    // A socket replaced since (after a failure) says nothing about the request under way.
    socket.on("data", (c: Buffer) => this.socket === socket && this.read(c));
    socket.on("error", (e) => this.socket === socket && this.fail(e));
    socket.on(
      "close",
      () => this.socket === socket && this.fail(new Error("the connection closed")),
    );
    this.socket = socket;
    return socket;
  }

  private read(chunk: Buffer): void {
    this.chunks.push(chunk);
    const all = this.chunks.length === 1 ? chunk : Buffer.concat(this.chunks);
    const end = all.indexOf("\r\n\r\n");
    if (end < 0) return;
    const head = all.toString("latin1", 0, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.fail(new Error(`an answer without Content-Length: ${head}`));
    const bodyEnd = end + 4 + Number(length[1]);
    if (all.length < bodyEnd) {
      this.chunks = [all];
      return;
    }
    if (all.length > bodyEnd) return this.fail(new Error("bytes after the answer"));
    this.chunks = [];
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.resolve({
      status: Number(head.slice(9, 12)),
      text: all.toString("utf8", end + 4, bodyEnd),
    });
  }

  private fail(e: Error): void {
    this.close();
    this.chunks = [];
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(e);
  }
}

/** placeOrder on a client's own connection (KeptConnection): the same request and answer. */
export async function placeOrderOn(
  conn: KeptConnection,
  token: string,
  inst: Tradable,
  key: string,
  timeoutMs = 10_000,
): Promise<Envelope<{ Id: number }>> {
  const { status, text } = await conn.request(
    "POST",
    submit.path,
    `content-type: application/json\r\nauthorization: ${token}\r\nidempotency-key: ${key}\r\n`,
    JSON.stringify(orderBody(inst)),
    timeoutMs,
  );
  return envelopeOf<{ Id: number }>(status, text);
}

/** A market buy of the instrument's smallest size, as the submit call takes it. */
const orderBody = (inst: Tradable) => ({
  type: 1,
  cont: inst.lots,
  forex_id: inst.id,
  status: 1,
  multiple: inst.multiple,
});

/** Places one market buy of the instrument's smallest size; answers the envelope. */
export function placeOrder(
  base: string,
  token: string,
  inst: Tradable,
  key: string,
  timeoutMs = 10_000,
): Promise<Envelope<{ Id: number }>> {
  return call<{ Id: number }>(base, "POST", submit.path, {
    body: orderBody(inst),
    headers: { authorization: token, "idempotency-key": key },
    timeoutMs,
  });
}

/** The operator token and secret key an upstream node is started with (new each run). */
export function newSecrets(): { OPERATOR_TOKEN: string; OPERATOR_SECRET_KEY: string } {
  return {
    OPERATOR_TOKEN: crypto.randomBytes(32).toString("base64url"),
    OPERATOR_SECRET_KEY: crypto.randomBytes(32).toString("hex"),
  };
}

/** A free loopback TCP port, or null when `port` is given and taken. */
export function portFree(port = 0): Promise<number | null> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(null));
    s.listen(port, "127.0.0.1", () => {
      const got = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(got));
    });
  });
}

/** The lowest port the kernel hands out to outgoing connections (Linux; 32768 elsewhere). */
function ephemeralLow(): number {
  try {
    return Number(
      fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
  } catch {
    return 32_768;
  }
}

/**
 * A base port for the cluster launcher (it uses BASE..BASE+2, BASE+101.., BASE+200, BASE+201):
 * BENCH_PORT, else the first base from 21000 up (in steps of 300) whose ports are all free, below
 * the range of outgoing connections' ports: thousands of bench clients take ports there, and a node
 * the supervisor restarts must find its own port free.
 */
export async function clusterBasePort(offsets: number[]): Promise<number> {
  if (process.env.BENCH_PORT) return Number(process.env.BENCH_PORT);
  const top = ephemeralLow() - Math.max(...offsets) - 1;
  for (let base = 21_000; base <= top; base += 300) {
    const free = await Promise.all(offsets.map((o) => portFree(base + o)));
    if (free.every((p) => p !== null)) return base;
  }
  throw new Error("no free range of ports for the cluster (set BENCH_PORT)");
}

export interface UpstreamChild {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
  /**
   * The node's event-loop delay since the last call (or since it started), from the probe
   * tests/bench/loop-delay.ts, which every node spawned here loads.
   */
  loopDelay(): Promise<LoopDelay>;
}

/** Event-loop delay of a node over a window (loop-delay.ts). */
export interface LoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

/** A reference upstream node (upstream/main.ts) as a child process; resolves once it serves. */
export async function spawnUpstream(
  env: Record<string, string>,
  logFile: string,
): Promise<UpstreamChild> {
  const port = (await portFree())!;
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
      "--import",
      "tsx",
      "--import",
      "./tests/bench/loop-delay.ts",
      "upstream/main.ts",
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        UPSTREAM_HOST: "127.0.0.1",
        UPSTREAM_PORT: String(port),
        ...env,
      },
      stdio: ["ignore", "pipe", fs.openSync(logFile, "a")],
    },
  );
  const delays: Array<(d: LoopDelay) => void> = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no UPSTREAM_READY (see ${logFile})`)), 90_000);
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      fs.appendFileSync(logFile, line + "\n");
      if (line.startsWith("LOOP_DELAY ")) {
        delays.shift()?.(JSON.parse(line.slice("LOOP_DELAY ".length)) as LoopDelay);
        return;
      }
      if (!line.startsWith("UPSTREAM_READY ")) return;
      clearTimeout(timer);
      resolve(line.slice("UPSTREAM_READY ".length).trim());
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the upstream exited with ${code} while starting (see ${logFile})`));
    });
  });
  return {
    url,
    child,
    loopDelay: () =>
      new Promise<LoopDelay>((resolve) => {
        delays.push(resolve);
        child.kill("SIGUSR2");
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
  };
}

/** The value at percentile p (0..100) of ascending values. */
export function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Resident memory of a process, bytes. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** This shell's soft and hard limits of open files (Infinity for "unlimited"). */
export function fdLimits(): { soft: number; hard: number } {
  const read = (flag: string) => {
    const v = execFileSync("bash", ["-c", `ulimit ${flag}`], { encoding: "utf8" }).trim();
    return v === "unlimited" ? Infinity : Number(v);
  };
  return { soft: read("-Sn"), hard: read("-Hn") };
}
