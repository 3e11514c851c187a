/**
 * A vitest reporter that bounds the run: a test file whose process stops answering (its event loop
 * held forever, a global teardown that never ends) would otherwise hold the whole run until CI's
 * own limit, with nothing in the log saying which file it was. After RUN_LIMIT_S (TEST_RUN_LIMIT_S
 * overrides it) it prints every file still running with the tests of it not finished, and ends the
 * run with exit code 1. It runs beside the default reporter (vitest.config.ts), never instead.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Reporter, TestCase, TestModule } from "vitest/node";

/**
 * Far above a whole run on a 2-core machine (about 3.5 minutes here), with room for a machine
 * several times slower; far below CI's 90 minutes, with Playwright's own 30 after it.
 */
const RUN_LIMIT_S = 1800;

/** Every process below `root`, children first listed before their own children. */
function descendants(root: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const out: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of rows)
      if (parent === pid) {
        out.push(child);
        walk(child);
      }
  };
  walk(root);
  return out;
}

export default class WatchdogReporter implements Reporter {
  private readonly running = new Map<string, TestModule>();
  private readonly started = new Map<string, number>();
  private readonly open = new Set<TestCase>();
  private timer: NodeJS.Timeout | null = null;

  onInit(): void {
    const limitS = Number(process.env.TEST_RUN_LIMIT_S ?? RUN_LIMIT_S);
    this.timer = setTimeout(() => this.fire(limitS), limitS * 1000);
    this.timer.unref();
  }

  onTestModuleStart(m: TestModule): void {
    this.running.set(m.moduleId, m);
    this.started.set(m.moduleId, Date.now());
  }

  onTestModuleEnd(m: TestModule): void {
    this.running.delete(m.moduleId);
  }

  onTestCaseReady(t: TestCase): void {
    this.open.add(t);
  }

  onTestCaseResult(t: TestCase): void {
    this.open.delete(t);
  }

  onTestRunEnd(): void {
    if (this.timer) clearTimeout(this.timer);
  }

  private fire(limitS: number): void {
    const lines = [`\nvitest watchdog: the run exceeded ${limitS} s; files still running:`];
    for (const [id, m] of this.running) {
      const s = Math.round((Date.now() - (this.started.get(id) ?? Date.now())) / 1000);
      lines.push(`  [${m.project.name}] ${path.relative(process.cwd(), m.moduleId)} (for ${s} s)`);
      for (const t of this.open)
        if (t.module.moduleId === id) lines.push(`      unfinished: ${t.fullName}`);
    }
    if (this.running.size === 0) lines.push("  none: the run's global teardown did not end");
    process.stderr.write(lines.join("\n") + "\n");
    // The workers (and the servers they started) would outlive the run and keep spinning.
    for (const pid of descendants(process.pid)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    process.exit(1);
  }
}
