/**
 * A program started with a bad environment stops before it serves anything: it prints what is
 * wrong, naming the variable (never a secret's value), and exits with code 1. Both programs start
 * as operators start them, from the run's bundles (tests/support/node-bundle.ts); the parsing rules
 * themselves are unit-tested (tests/unit/upstream-config.test.ts, tests/unit/web-env.test.ts).
 */
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { nodeArgsFor, type NodeEntry } from "../support/node-bundle.js";

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `entry` with the test process's environment plus `vars`; resolves when it exits. */
function start(entry: NodeEntry, vars: Record<string, string>): Promise<Exit> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      nodeArgsFor(entry),
      { env: { ...process.env, ...vars }, encoding: "utf8", timeout: 30_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe("start-up with a bad environment", () => {
  it("the upstream stops with the message and exit code 1", async () => {
    const r = await start("upstream", {
      UPSTREAM_PORT: "abc",
      DATA_DIR: "/nonexistent-never-created",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Invalid upstream configuration: UPSTREAM_PORT must be a whole number/,
    );
    expect(r.stdout).not.toMatch(/UPSTREAM_READY/);
  });

  it("the web stops with a message naming the variable", async () => {
    const runs = await Promise.all(
      (
        [
          ["PORT", "abc"],
          ["UPSTREAM_URL", "not-a-url"],
          ["SESSION_SECRET", "too-short"],
        ] as const
      ).map(async ([name, value]) => ({ name, r: await start("server", { [name]: value }) })),
    );
    for (const { name, r } of runs) {
      expect(r.code, `${name}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain("Invalid environment");
      expect(r.stderr).toContain(`${name}:`);
    }
  });

  it("the web in cluster mode without a shared session secret is refused, the password unshown", async () => {
    const r = await start("server", {
      DATABASE_URL: "postgres://web:hunter2-password@127.0.0.1:9/tradepost",
      SESSION_SECRET: "",
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("Invalid environment");
    expect(r.stderr).toContain("SESSION_SECRET: must be set when DATABASE_URL is set");
    expect(r.stderr).not.toContain("hunter2");
  });
});
