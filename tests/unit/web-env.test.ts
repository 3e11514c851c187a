/** The web's environment (app/utils/env.server.ts): defaults, parsing and refusals naming the variable. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../app/utils/env.server";

const NEW = "new-secret-0123456789abcdef0123456789";
const OLD = "old-secret-0123456789abcdef0123456789";

function problems(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (err) {
    if (err instanceof EnvError) return err.problems.map((p) => p.variable);
    throw err;
  }
  return [];
}

describe("web environment", () => {
  it("has defaults for everything", () => {
    const e = parseEnv({});
    expect(e).toMatchObject({
      port: 3000,
      host: "0.0.0.0",
      upstreamUrl: null,
      upstreamPort: 3100,
      upstreamTimeoutMs: 15000,
      isProduction: false,
      secureCookies: false,
      shutdownGraceMs: 5000,
      formMaxBytes: 65536,
      sessionSecrets: [],
      dataDir: path.resolve("data"),
    });
  });

  it("reads and converts values", () => {
    const e = parseEnv({
      NODE_ENV: "production",
      PORT: "3310",
      UPSTREAM_URL: "http://127.0.0.1:3410/",
      SESSION_SECRET: `${NEW}, ${OLD}`,
      CSP_FRAME_SRC: "https://a.test https://b.test",
      COOKIE_SECURE: "0",
    });
    expect(e.port).toBe(3310);
    expect(e.upstreamPort).toBe(3410);
    expect(e.upstreamUrl).toBe("http://127.0.0.1:3410");
    expect(e.sessionSecrets).toEqual([NEW, OLD]);
    expect(e.cspFrameSrc).toEqual(["https://a.test", "https://b.test"]);
    expect(e.isProduction).toBe(true);
    expect(e.secureCookies).toBe(false);
    expect(parseEnv({ NODE_ENV: "production" }).secureCookies).toBe(true);
    // empty means unset
    expect(parseEnv({ PORT: "", UPSTREAM_URL: "" })).toMatchObject({
      port: 3000,
      upstreamUrl: null,
    });
  });

  it("refuses invalid values, naming each variable", () => {
    expect(problems({ PORT: "abc" })).toEqual(["PORT"]);
    expect(problems({ PORT: "70000" })).toEqual(["PORT"]);
    expect(problems({ UPSTREAM_URL: "not-a-url" })).toEqual(["UPSTREAM_URL"]);
    expect(problems({ UPSTREAM_URL: "ftp://host" })).toEqual(["UPSTREAM_URL"]);
    expect(problems({ DESKTOP_URL: "pc.example.com" })).toEqual(["DESKTOP_URL"]);
    expect(problems({ MARKET_CACHE_MS: "-1" })).toEqual(["MARKET_CACHE_MS"]);
    expect(parseEnv({}).marketCacheMs).toBe(1000);
    expect(parseEnv({ MARKET_CACHE_MS: "0" }).marketCacheMs).toBe(0);
    expect(parseEnv({ DESKTOP_URL: "https://pc.example.com/" }).desktopUrl).toBe(
      "https://pc.example.com",
    );
    expect(problems({ UPSTREAM_TIMEOUT_MS: "-1" })).toEqual(["UPSTREAM_TIMEOUT_MS"]);
    expect(problems({ COOKIE_SECURE: "maybe" })).toEqual(["COOKIE_SECURE"]);
    expect(problems({ NODE_ENV: "staging" })).toEqual(["NODE_ENV"]);
    expect(problems({ PORT: "x", UPSTREAM_PORT: "y", SHUTDOWN_GRACE_MS: "z" })).toEqual([
      "PORT",
      "UPSTREAM_PORT",
      "SHUTDOWN_GRACE_MS",
    ]);
    expect(() => parseEnv({ PORT: "abc" })).toThrow(/PORT: must be a port number \(got "abc"\)/);
  });

  it("refuses a session secret under 32 bytes, any of the comma-separated ones, without echoing it", () => {
    expect(problems({ SESSION_SECRET: "short" })).toEqual(["SESSION_SECRET"]);
    expect(problems({ SESSION_SECRET: `${NEW},short-old` })).toEqual(["SESSION_SECRET"]);
    expect(problems({ SESSION_SECRET: "x".repeat(31) })).toEqual(["SESSION_SECRET"]);
    expect(problems({ SESSION_SECRET: "x".repeat(32) })).toEqual([]);
    // bytes, not characters: 16 three-byte characters are 48 bytes
    expect(problems({ SESSION_SECRET: "秘".repeat(16) })).toEqual([]);
    expect(() => parseEnv({ SESSION_SECRET: `${NEW},short-old` })).toThrow(
      /SESSION_SECRET: secret 2 of 2 is 9 bytes; each must be at least 32 bytes/,
    );
    expect(() => parseEnv({ SESSION_SECRET: "short-old" })).not.toThrow(/short-old/);
  });

  it("reads UPSTREAM_URL as a comma-separated list of upstream nodes, in the order tried", () => {
    const e = parseEnv({ UPSTREAM_URL: " http://10.0.0.1:4100/ , https://up-b.example/api/," });
    expect(e.upstreamUrls).toEqual(["http://10.0.0.1:4100", "https://up-b.example/api"]);
    expect(e.upstreamUrl).toBe("http://10.0.0.1:4100");
    expect(parseEnv({}).upstreamUrls).toEqual([]);
    expect(problems({ UPSTREAM_URL: "http://10.0.0.1:4100,not-a-url" })).toEqual(["UPSTREAM_URL"]);
    expect(problems({ UPSTREAM_URL: "," })).toEqual(["UPSTREAM_URL"]);
  });

  it("cluster mode (DATABASE_URL) refuses to start without SESSION_SECRET, never echoing the URL", () => {
    const url = "postgres://web:hunter2-password@db.internal:5432/tradepost";
    expect(parseEnv({ DATABASE_URL: url, SESSION_SECRET: NEW }).databaseUrl).toBe(url);
    expect(parseEnv({}).databaseUrl).toBeNull();
    // A generated secret is per node: a session signed on one node would be refused by another.
    expect(problems({ DATABASE_URL: url })).toEqual(["SESSION_SECRET"]);
    expect(problems({ DATABASE_URL: url, SESSION_SECRET: " , " })).toEqual(["SESSION_SECRET"]);
    expect(() => parseEnv({ DATABASE_URL: url })).toThrow(
      /SESSION_SECRET: must be set when DATABASE_URL is set/,
    );
    expect(problems({ DATABASE_URL: "mysql://x@y/z", SESSION_SECRET: NEW })).toEqual([
      "DATABASE_URL",
    ]);
    expect(() =>
      parseEnv({ DATABASE_URL: "pg-hunter2-password", SESSION_SECRET: NEW }),
    ).not.toThrow(/hunter2/);
  });
});
