/**
 * Loopback ports for the services the scripts start (PostgreSQL, NATS, HAProxy, the upstream and
 * the web) and for the tests and benchmarks, which import this one definition from here: the
 * scripts are product code and may not import from tests/.
 *
 * A port handed out here is bound later by another process (a server the caller spawns), so two
 * things could take it in between, and a busy test run makes both likely enough to fail a run now
 * and then:
 * - an outgoing connection's source port: the kernel picks those from its ephemeral range
 *   (net.ipv4.ip_local_port_range), so ports are handed out only from below that range;
 * - the same port handed to another process of the same run: each port handed out is reserved by a
 *   file created exclusively in the machine's temporary folder, kept for RESERVED_MS.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** How many ports below the ephemeral range are used. */
const RANGE_SIZE = 12_000;
/** The lowest port ever handed out (well above the well-known and registered services' ports). */
const LOWEST_PORT = 10_000;
/** A reservation holds this long: far longer than any server takes to bind what it was given. */
const RESERVED_MS = 10 * 60_000;
const ATTEMPTS = 200;
/**
 * The machine's own temporary folder, shared by every run on it: `npm test` gives its processes a
 * private TMPDIR (removed at the end) and names the shared one in TRADEPOST_MACHINE_TMP, so that
 * reservations and locks still hold across runs side by side.
 */
export function machineTmpDir(): string {
  return process.env.TRADEPOST_MACHINE_TMP || os.tmpdir();
}
const RESERVATIONS = path.join(machineTmpDir(), "tradepost-ports");

function ephemeralLow(): number {
  try {
    const low = Number(
      fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").split(/\s+/)[0],
    );
    if (Number.isInteger(low) && low > LOWEST_PORT + 1000) return low;
  } catch {
    // not Linux: the IANA ephemeral range's start
  }
  return 49_152;
}

/** True when this call created the port's reservation (or took over one that had expired). */
function reserve(port: number): boolean {
  fs.mkdirSync(RESERVATIONS, { recursive: true });
  const file = path.join(RESERVATIONS, String(port));
  try {
    fs.writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    try {
      if (Date.now() - fs.statSync(file).mtimeMs < RESERVED_MS) return false;
      fs.utimesSync(file, new Date(), new Date());
      return true;
    } catch {
      return false;
    }
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen({ port, host: "127.0.0.1", exclusive: true }, () => s.close(() => resolve(true)));
  });
}

/**
 * A loopback TCP port that is free right now, outside the kernel's ephemeral range and reserved
 * for this caller against every other caller on the machine for RESERVED_MS.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.max(LOWEST_PORT, high - RANGE_SIZE + 1);
  for (let i = 0; i < ATTEMPTS; i++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (reserve(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free loopback port in ${low}-${high} after ${ATTEMPTS} attempts`);
}
