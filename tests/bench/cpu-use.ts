/**
 * Where a bench's CPU went: the CPU time of the node measured (all its threads, and its main thread
 * alone), of the store's server (PostgreSQL's postmaster and every process it started), of the
 * bench process itself (its clients), and the machine's busy and I/O-wait shares, read from /proc
 * between two samples. On a machine whose cores all of these share, a rate that stops growing while
 * the cores are busy is bounded by CPU per order, not by the disk; this says whose.
 *
 * Linux only: elsewhere `cpuSample` answers null and the bench prints no CPU figures. /proc counts
 * in clock ticks (CLK_TCK a second, 100 on common kernels), so a window of seconds is needed for a
 * figure within a few per cent.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export interface CpuSample {
  /** Microseconds of CPU, each counted since its process started. */
  nodeUs: number;
  nodeMainUs: number;
  storeUs: number;
  benchUs: number;
  /** The machine's clock ticks: all, busy (not idle, not waiting on I/O), waiting on I/O. */
  machine: { all: number; busy: number; iowait: number };
}

/** CPU between two samples, per order acknowledged in between. */
export interface CpuPerOrder {
  nodeUs: number;
  nodeMainUs: number;
  /** null: the store runs inside the node (SQLite). */
  storeUs: number | null;
  benchUs: number;
  machineBusyPct: number;
  iowaitPct: number;
}

let tickUs: number | null = null;

function microsPerTick(): number {
  if (tickUs === null) {
    let hz = 100;
    try {
      hz = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      // getconf missing: the kernel's usual rate.
    }
    tickUs = 1e6 / hz;
  }
  return tickUs;
}

/** The fields of a /proc stat line after the command's name: state is [0], ppid [1], utime [11]. */
function statFields(file: string): string[] | null {
  try {
    const text = fs.readFileSync(file, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null; // the process ended between the listing and the read
  }
}

const ticksOf = (f: string[]) => Number(f[11]) + Number(f[12]);

/**
 * User + system CPU of a process so far (of one of its threads, given `tid`), in clock ticks;
 * NaN once it is gone.
 */
export function cpuTicksOf(pid: number, tid?: number): number {
  const f = statFields(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`);
  return f ? ticksOf(f) : NaN;
}

/** A process and every process it started (one level: a server's backends), in clock ticks. */
function familyTicks(pid: number): number {
  let ticks = cpuTicksOf(pid);
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(`/proc/${entry}/stat`);
    if (f && Number(f[1]) === pid) ticks += ticksOf(f);
  }
  return ticks;
}

function machineTicks(): CpuSample["machine"] {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line
    .split(/\s+/)
    .slice(1, 9)
    .map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { all: busy + idle! + iowait!, busy, iowait: iowait! };
}

/** The CPU used so far by the node `nodePid`, the store's server `storePid` (if any) and the bench. */
export function cpuSample(nodePid: number, storePid: number | null): CpuSample | null {
  if (process.platform !== "linux" || !fs.existsSync(`/proc/${nodePid}/stat`)) return null;
  const us = microsPerTick();
  const bench = process.cpuUsage();
  return {
    nodeUs: cpuTicksOf(nodePid) * us,
    nodeMainUs: cpuTicksOf(nodePid, nodePid) * us,
    storeUs: storePid === null ? 0 : familyTicks(storePid) * us,
    benchUs: bench.user + bench.system,
    machine: machineTicks(),
  };
}

/** The CPU of the samples' windows added up, per order acknowledged in them. */
export function perOrder(
  windows: { before: CpuSample; after: CpuSample }[],
  orders: number,
  hasStore: boolean,
): CpuPerOrder | null {
  if (windows.length === 0 || orders === 0) return null;
  const sum = (f: (s: CpuSample) => number) =>
    windows.reduce((a, w) => a + f(w.after) - f(w.before), 0);
  const all = sum((s) => s.machine.all);
  return {
    nodeUs: sum((s) => s.nodeUs) / orders,
    nodeMainUs: sum((s) => s.nodeMainUs) / orders,
    storeUs: hasStore ? sum((s) => s.storeUs) / orders : null,
    benchUs: sum((s) => s.benchUs) / orders,
    machineBusyPct: all > 0 ? (100 * sum((s) => s.machine.busy)) / all : 0,
    iowaitPct: all > 0 ? (100 * sum((s) => s.machine.iowait)) / all : 0,
  };
}
