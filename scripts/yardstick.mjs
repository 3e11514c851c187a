// The machine's yardsticks, printed before a timed run (test-clean-clone.sh) so that its times are
// read beside them. Machines of one kind differ in two ways that matter to the suite:
// - one core's speed: a fixed piece of arithmetic and hashing (cpu, ms);
// - what the kernel charges for crossing into it and for waking another process: one system call
//   (a 1-byte read of /dev/zero, ns) and one round trip of a byte between two processes through
//   two pipes (us). The suite is many processes talking over loopback (browser, web, upstream,
//   PostgreSQL), so a machine whose system calls cost several times as much runs it slower at
//   the same cpu figure: one such machine took 16m20s for a commit that took 7m20s on another,
//   both reading 2.0-2.1 s of cpu.
// Usage: node scripts/yardstick.mjs   -> "cpu 2102 ms, system call 1868 ns, pipe round trip 26.3 us"
import { execFileSync, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

function cpuMs() {
  const t = process.hrtime.bigint();
  let x = 0;
  for (let i = 0; i < 3e8; i++) x = (x * 31 + i) | 0;
  for (let i = 0; i < 200000; i++)
    crypto
      .createHash("sha256")
      .update("abc" + i)
      .digest();
  return Math.round(Number(process.hrtime.bigint() - t) / 1e6) + (x & 0);
}

const SYSCALLS = 200_000;

function systemCallNs() {
  const fd = fs.openSync("/dev/zero", "r");
  const b = Buffer.alloc(1);
  try {
    for (let i = 0; i < 1_000; i++) fs.readSync(fd, b, 0, 1, null);
    const t = process.hrtime.bigint();
    for (let i = 0; i < SYSCALLS; i++) fs.readSync(fd, b, 0, 1, null);
    return Math.round(Number(process.hrtime.bigint() - t) / SYSCALLS);
  } finally {
    fs.closeSync(fd);
  }
}

const ROUND_TRIPS = 10_000;

/** A byte sent to a child process through one FIFO and back through another, blocking reads. */
function pipeRoundTripUs() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-yardstick-"));
  const there = path.join(dir, "there");
  const back = path.join(dir, "back");
  try {
    execFileSync("mkfifo", [there, back]);
    const echo = `const fs = require("node:fs"); const i = fs.openSync(${JSON.stringify(there)}, "r");
      const o = fs.openSync(${JSON.stringify(back)}, "w"); const b = Buffer.alloc(1);
      while (fs.readSync(i, b, 0, 1, null) === 1) fs.writeSync(o, b);`;
    const child = spawn(process.execPath, ["-e", echo], { stdio: "ignore" });
    // Opened in the child's order: each open waits for the other end.
    const out = fs.openSync(there, "w");
    const inp = fs.openSync(back, "r");
    const b = Buffer.from("x");
    const once = () => {
      fs.writeSync(out, b);
      fs.readSync(inp, b, 0, 1, null);
    };
    for (let i = 0; i < 500; i++) once();
    const t = process.hrtime.bigint();
    for (let i = 0; i < ROUND_TRIPS; i++) once();
    const us = Number(process.hrtime.bigint() - t) / 1e3 / ROUND_TRIPS;
    fs.closeSync(out);
    fs.closeSync(inp);
    child.kill();
    return Math.round(us * 10) / 10;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The round trip measured in a process of its own, which blocks on its FIFOs: when the echoing
 * child never opens them, the time-out ends it and the figure reads "n/a" instead of a hang.
 */
function pipeFigure() {
  try {
    const us = execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--pipe"], {
      timeout: 30_000,
      encoding: "utf8",
    });
    return `${us.trim()} us`;
  } catch {
    return "n/a";
  }
}

if (process.argv.includes("--pipe")) console.log(pipeRoundTripUs());
else
  console.log(
    `cpu ${cpuMs()} ms, system call ${systemCallNs()} ns, pipe round trip ${pipeFigure()}`,
  );
