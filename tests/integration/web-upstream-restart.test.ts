/**
 * The real server.ts with its embedded upstream: the upstream killed (SIGKILL) is restarted while
 * the web keeps answering (no 500, no stack trace meanwhile), and a shutdown after such a kill ends
 * within SHUTDOWN_GRACE_MS plus the bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, demoSignIn, startWeb, type WebServer } from "./web-harness";

const GRACE_MS = 2000;
/** SHUTDOWN_GRACE_MS plus server.ts's bound (5 s), plus slack for a busy machine. */
const SHUTDOWN_LIMIT_MS = GRACE_MS + 5000 + 2000;

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { SHUTDOWN_GRACE_MS: String(GRACE_MS) } });
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

function pidIn(line: string): number {
  const m = /"upstreamPid":(\d+)/.exec(line);
  if (!m) throw new Error(`no upstream pid in ${line}`);
  return Number(m[1]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function expectPageWithoutFailure(path: string, cookie = "") {
  const res = await fetch(`${web.base}${path}`, { redirect: "manual", headers: { cookie } });
  const body = await res.text();
  // Either the page (the upstream is back already) or the "temporarily unavailable" page.
  if (res.status === 503) expect(body, path).toContain('data-error="unavailable"');
  else expect(res.status, path).toBeLessThan(500);
  expect(body, path).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(body, path).not.toContain("Unexpected Server Error");
}

describe("embedded upstream supervision", () => {
  it("restarts a killed upstream while the web keeps answering", async () => {
    const firstPid = pidIn(await web.waitForLine(/embedded upstream started/));
    expect((await fetch(`${web.upstreamBase}/health`)).status).toBe(200);
    const { jar } = await demoSignIn(web.base, "%2F");
    const cookie = cookieHeader(jar);

    const mark = web.lines.length;
    process.kill(firstPid, "SIGKILL");
    const exitLine = await web.waitForLine(/exited unexpectedly; restarting it/, 10_000, mark);
    expect(exitLine).toContain('"signal":"SIGKILL"');
    expect(exitLine).toContain('"restartInMs":500');

    // The web itself stays up while its upstream is away.
    expect((await fetch(`${web.base}/healthz`)).status).toBe(200);
    await expectPageWithoutFailure("/login");
    for (const p of ["/", "/user", "/order", "/trade", "/product"])
      await expectPageWithoutFailure(p, cookie);

    const restarted = await web.waitForLine(/embedded upstream restarted/, 60_000, mark);
    const secondPid = pidIn(restarted);
    expect(secondPid).not.toBe(firstPid);
    expect(alive(secondPid)).toBe(true);
    expect((await fetch(`${web.upstreamBase}/health`)).status).toBe(200);
    const login = await fetch(`${web.base}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain('name="csrf"');
    expect(alive(web.proc.pid!)).toBe(true);
  }, 120_000);

  it("shuts down within the bound after its upstream was killed by a signal", async () => {
    const pid = pidIn(
      [...web.lines].reverse().find((l) => /"upstreamPid":\d+/.test(l) && /started/.test(l))!,
    );
    const mark = web.lines.length;
    process.kill(pid, "SIGKILL");
    await web.waitForLine(/exited unexpectedly; restarting it/, 10_000, mark);
    const t0 = Date.now();
    web.proc.kill("SIGTERM");
    const exit = await web.exited(SHUTDOWN_LIMIT_MS);
    expect(exit, `still running ${SHUTDOWN_LIMIT_MS} ms after SIGTERM`).not.toBeNull();
    expect(exit!.code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(SHUTDOWN_LIMIT_MS);
    // No restarted upstream is left behind.
    for (const l of web.lines.slice(mark))
      if (/"upstreamPid":\d+/.test(l)) expect(alive(pidIn(l))).toBe(false);
  }, 60_000);
});
