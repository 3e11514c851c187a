/**
 * The session secret without SESSION_SECRET: 32 random bytes generated once per install and kept in
 * DATA_DIR/session-secret (mode 600), reused on later starts; two installs never accept each other's
 * cookies.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { loadOrCreateSessionSecret } from "../../app/utils/env.server";

const dirs: string[] = [];
const saved = { DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: process.env.SESSION_SECRET };

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "tradepost-secret-"));
  dirs.push(d);
  return d;
}

/** The session module of an install on `dataDir`, loaded afresh as a new process would. */
async function install(dataDir: string) {
  vi.resetModules();
  process.env.DATA_DIR = dataDir;
  delete process.env.SESSION_SECRET;
  return import("../../app/utils/session.server");
}

async function signedCookie(mod: Awaited<ReturnType<typeof install>>): Promise<string> {
  const session = await mod.getSession(new Request("http://x/"));
  session.set("token", "tok-123");
  const setCookie = await mod.commitSession(session);
  return setCookie.split(";")[0];
}

async function tokenOf(mod: Awaited<ReturnType<typeof install>>, cookie: string) {
  const session = await mod.getSession(new Request("http://x/", { headers: { cookie } }));
  return session.get("token");
}

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("session secret kept in DATA_DIR", () => {
  it("is generated once (32 random bytes, mode 600) and reused afterwards", () => {
    const dir = path.join(tempDir(), "nested", "data");
    const first = loadOrCreateSessionSecret(dir);
    expect(first.created).toBe(true);
    expect(first.file).toBe(path.join(dir, "session-secret"));
    expect(Buffer.from(first.secret, "base64url")).toHaveLength(32);
    expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateSessionSecret(dir);
    expect(again).toMatchObject({ created: false, secret: first.secret });
    expect(loadOrCreateSessionSecret(tempDir()).secret).not.toBe(first.secret);
  });

  it("refuses a file that holds no usable secret", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "session-secret"), "short\n");
    expect(() => loadOrCreateSessionSecret(dir)).toThrow(/no usable session secret/);
  });

  it("two fresh installs never accept each other's cookies; a restart keeps its own", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const dirA = tempDir();
    const dirB = tempDir();
    const a = await install(dirA);
    const cookieA = await signedCookie(a);
    expect(await tokenOf(a, cookieA)).toBe("tok-123");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("generated a session secret"));

    const b = await install(dirB);
    const cookieB = await signedCookie(b);
    expect(await tokenOf(b, cookieB)).toBe("tok-123");
    expect(await tokenOf(b, cookieA)).toBeUndefined();

    const aRestarted = await install(dirA);
    expect(await tokenOf(aRestarted, cookieA)).toBe("tok-123");
    expect(await tokenOf(aRestarted, cookieB)).toBeUndefined();
    warn.mockRestore();
  });
});
