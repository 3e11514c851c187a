/**
 * The console's session cookie ends with the operator's token, counted by the browser from when it
 * got the cookie (Max-Age), not at a date of the server's clock (Expires): a device whose clock is
 * ahead of the server's kept no console session at all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SECRET = "operator-session-test-secret-0123456789";
let before: string | undefined;

beforeAll(() => {
  before = process.env.SESSION_SECRET;
  process.env.SESSION_SECRET = SECRET;
});
afterAll(() => {
  if (before === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = before;
});

async function cookieFor(expiresAt: number | undefined): Promise<string> {
  const { commitOperatorSession, getOperatorSession } =
    await import("../../app/utils/operator-session.server");
  const session = await getOperatorSession(new Request("http://localhost/operator"));
  session.set("token", "t");
  if (expiresAt !== undefined) session.set("expiresAt", expiresAt);
  return commitOperatorSession(session);
}

describe("the console's session cookie", () => {
  it("lasts as long as the operator's token has left, as Max-Age, with no Expires date", async () => {
    const header = await cookieFor(Date.now() + 2 * 3600_000);
    const maxAge = Number(/Max-Age=(\d+)/.exec(header)?.[1]);
    expect(maxAge).toBeGreaterThan(2 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(2 * 3600);
    expect(header).not.toMatch(/Expires=/i);
  });

  it("is an hour without a token end, and gone at once for a token already ended", async () => {
    expect(await cookieFor(undefined)).toMatch(/Max-Age=3600(;|$)/);
    expect(await cookieFor(Date.now() - 1000)).toMatch(/Max-Age=0(;|$)/);
  });

  it("is read back as the same session", async () => {
    const { getOperatorSession } = await import("../../app/utils/operator-session.server");
    const header = await cookieFor(Date.now() + 3600_000);
    const pair = header.split(";")[0];
    const session = await getOperatorSession(
      new Request("http://localhost/operator", { headers: { Cookie: pair } }),
    );
    expect(session.get("token")).toBe("t");
  });
});
