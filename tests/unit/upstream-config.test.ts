/** The upstream's environment: defaults, parsed values, and invalid values refused by name. */
import { describe, expect, it } from "vitest";
import path from "node:path";
import {
  ConfigError,
  DEV_OUTBOX_IN_PRODUCTION,
  loadConfig,
  redactedStore,
  requireSecretKeyWithPostgres,
  storeOf,
  loadStoreOf,
} from "../../upstream/platform/config.js";

const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

function problemOf(vars: Record<string, string>): string {
  try {
    loadConfig(env(vars));
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return "accepted";
}

describe("upstream config", () => {
  it("has the documented defaults", () => {
    const c = loadConfig(env({}));
    expect(c).toMatchObject({
      host: "127.0.0.1",
      port: 4100,
      tickMs: 500,
      seed: 20261122,
      rateLimit: true,
      simulate: true,
      marketFeed: "simulator",
      codeResendSeconds: 60,
      marketAlwaysOpen: false,
      devOutbox: true,
      smtpUrl: null,
      logLevel: "info",
    });
    expect(c.tokenTtlSeconds).toBe(30 * 24 * 3600);
  });

  it("reads values, flags and the outbox default", () => {
    const c = loadConfig(
      env({
        UPSTREAM_PORT: "4321",
        MARKET_TICK_MS: "250",
        RATE_LIMIT: "0",
        MARKET_ALWAYS_OPEN: "yes",
        SMTP_URL: "smtp://u:p@mail.example.com:587",
      }),
    );
    expect(c).toMatchObject({
      port: 4321,
      tickMs: 250,
      rateLimit: false,
      marketAlwaysOpen: true,
      devOutbox: false,
    });
    expect(loadConfig(env({ UPSTREAM_PORT: "" })).port).toBe(4100);
  });

  it("defaults the dev outbox on only on loopback, else only with DEV_OUTBOX=1", () => {
    for (const host of ["127.0.0.1", "::1", "localhost", "[::1]"])
      expect(loadConfig(env({ UPSTREAM_HOST: host })).devOutbox).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.10", "tradepost.example.com"]) {
      expect(loadConfig(env({ UPSTREAM_HOST: host })).devOutbox).toBe(false);
      expect(loadConfig(env({ UPSTREAM_HOST: host, DEV_OUTBOX: "1" })).devOutbox).toBe(true);
    }
    expect(loadConfig(env({ DEV_OUTBOX: "0" })).devOutbox).toBe(false);
  });

  it("never has the dev outbox with NODE_ENV=production: off by default, and refused when asked for", () => {
    const prod = { NODE_ENV: "production" };
    expect(loadConfig(env(prod)).devOutbox).toBe(false);
    expect(loadConfig(env({ ...prod, DEV_OUTBOX: "0" })).devOutbox).toBe(false);
    for (const on of ["1", "true", "yes"])
      expect(problemOf({ ...prod, DEV_OUTBOX: on })).toBe(
        `Invalid upstream configuration: DEV_OUTBOX ${DEV_OUTBOX_IN_PRODUCTION}`,
      );
    // Nor through the programmatic overrides (a test harness, an embedding).
    expect(() => loadConfig(env(prod), { devOutbox: true })).toThrow(ConfigError);
    // Development keeps it on loopback.
    expect(loadConfig(env({ NODE_ENV: "development" })).devOutbox).toBe(true);
  });

  it("reads the SMS webhook and its token; refuses an address that is not http(s)", () => {
    expect(loadConfig(env({}))).toMatchObject({ smsWebhookUrl: null, smsWebhookToken: null });
    expect(
      loadConfig(
        env({ SMS_WEBHOOK_URL: "https://sms.example.com/send", SMS_WEBHOOK_TOKEN: "t0ken" }),
      ),
    ).toMatchObject({ smsWebhookUrl: "https://sms.example.com/send", smsWebhookToken: "t0ken" });
    expect(problemOf({ SMS_WEBHOOK_URL: "ftp://sms.example.com/" })).toMatch(
      /SMS_WEBHOOK_URL must be an http or https URL/,
    );
    expect(problemOf({ SMS_WEBHOOK_URL: "not a url" })).toMatch(/SMS_WEBHOOK_URL must be a URL/);
  });

  it("reads UPSTREAM_TRUST_PROXY: loopback by default, off, every peer, hops or a list", () => {
    expect(loadConfig(env({})).trustProxy).toBe("loopback");
    for (const off of ["0", "false", "none", "NO"])
      expect(loadConfig(env({ UPSTREAM_TRUST_PROXY: off })).trustProxy).toBe(false);
    expect(loadConfig(env({ UPSTREAM_TRUST_PROXY: "true" })).trustProxy).toBe(true);
    expect(loadConfig(env({ UPSTREAM_TRUST_PROXY: "2" })).trustProxy).toBe(2);
    expect(
      loadConfig(env({ UPSTREAM_TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8,192.0.2.1" }))
        .trustProxy,
    ).toBe("loopback,10.0.0.0/8,fd00::/8,192.0.2.1");
    for (const bad of ["proxy.example.com", "10.0.0.0/33", "loopback,", "1.2.3.4/8/1"])
      expect(problemOf({ UPSTREAM_TRUST_PROXY: bad })).toMatch(
        /UPSTREAM_TRUST_PROXY must be false, true, a number of hops/,
      );
  });

  it("reads the hand-driven market and a shorter code resend time (what the tests run with)", () => {
    expect(loadConfig(env({ MARKET_FEED: "manual", CODE_RESEND_S: "3" }))).toMatchObject({
      marketFeed: "manual",
      codeResendSeconds: 3,
    });
    expect(problemOf({ MARKET_FEED: "random" })).toMatch(/MARKET_FEED/);
    expect(problemOf({ CODE_RESEND_S: "0" })).toMatch(/CODE_RESEND_S/);
  });

  it("reads NATS_URL: unset keeps pushes in process; one or several nats:// or tls:// URLs", () => {
    expect(loadConfig(env({})).natsUrl).toBeNull();
    expect(loadConfig(env({ NATS_URL: "" })).natsUrl).toBeNull();
    expect(loadConfig(env({ NATS_URL: " nats://127.0.0.1:4222 " })).natsUrl).toBe(
      "nats://127.0.0.1:4222",
    );
    expect(
      loadConfig(env({ NATS_URL: "nats://u:p@n1.example.com:4222,tls://n2.example.com:4222" }))
        .natsUrl,
    ).toBe("nats://u:p@n1.example.com:4222,tls://n2.example.com:4222");
    for (const bad of ["127.0.0.1:4222", "http://127.0.0.1:4222", "nats://a:1,", "nats://"])
      expect(problemOf({ NATS_URL: bad })).toMatch(/NATS_URL must be a nats:\/\/ or tls:\/\/ URL/);
  });

  it("reads the cluster's variables; a node on PostgreSQL needs OPERATOR_SECRET_KEY, the ledger check does not", () => {
    const url = "postgres://tp:secret@db.example.com:5432/tradepost";
    const c = loadConfig(
      env({
        DATABASE_URL: url,
        UPSTREAM_NODE_NAME: "node-1",
        UPSTREAM_ADVERTISE_URL: "http://10.0.0.11:4100",
      }),
    );
    expect(c).toMatchObject({
      databaseUrl: url,
      nodeName: "node-1",
      advertiseUrl: "http://10.0.0.11:4100",
    });
    expect(storeOf(c)).toBe(url);
    expect(redactedStore(url)).toBe("postgres://tp:***@db.example.com:5432/tradepost");
    expect(() => requireSecretKeyWithPostgres(c)).toThrow(
      /OPERATOR_SECRET_KEY must be set with DATABASE_URL/,
    );
    expect(
      requireSecretKeyWithPostgres({ ...c, operatorSecretKey: "a".repeat(64) }).databaseUrl,
    ).toBe(url);
    expect(requireSecretKeyWithPostgres(loadConfig(env({}))).databaseUrl).toBeNull();
    expect(storeOf(loadConfig(env({ UPSTREAM_DB: "/srv/up.sqlite" })))).toBe("/srv/up.sqlite");
    expect(problemOf({ DATABASE_URL: "mysql://db/tradepost" })).toMatch(
      /DATABASE_URL must be a PostgreSQL URL/,
    );
    expect(problemOf({ UPSTREAM_NODE_NAME: "a b" })).toMatch(/UPSTREAM_NODE_NAME/);
    expect(problemOf({ UPSTREAM_ADVERTISE_URL: "http://10.0.0.11:4100/x" })).toMatch(
      /UPSTREAM_ADVERTISE_URL/,
    );
  });

  it("refuses an invalid value, naming the variable", () => {
    expect(problemOf({ UPSTREAM_PORT: "abc" })).toMatch(/UPSTREAM_PORT must be a whole number/);
    expect(problemOf({ UPSTREAM_PORT: "70000" })).toMatch(/UPSTREAM_PORT must be at most 65535/);
    expect(problemOf({ MARKET_TICK_MS: "-1" })).toMatch(/MARKET_TICK_MS must be at least 10/);
    expect(problemOf({ RATE_LIMIT: "maybe" })).toMatch(
      /RATE_LIMIT must be 1, 0, true, false, yes or no/,
    );
    expect(problemOf({ SMTP_URL: "not a url" })).toMatch(/SMTP_URL/);
    // The scripts' operator secret acts as an admin: never a short, guessable one.
    expect(problemOf({ OPERATOR_TOKEN: "x".repeat(31) })).toMatch(
      /OPERATOR_TOKEN must be at least 32 characters/,
    );
    expect(problemOf({ OPERATOR_TOKEN: "x".repeat(32) })).toBe("accepted");
    const both = problemOf({ UPSTREAM_PORT: "abc", MARKET_TICK_MS: "-1" });
    expect(both).toMatch(/UPSTREAM_PORT/);
    expect(both).toMatch(/MARKET_TICK_MS/);
  });

  it("names the store from its variables alone for the tools that only read it (ledger:check)", () => {
    const url = "postgres://tp@db.example.com:5432/tradepost";
    // No OPERATOR_SECRET_KEY needed: reading the store unseals nothing.
    expect(loadStoreOf(env({ DATABASE_URL: url, OPERATOR_TOKEN: "short" }))).toBe(url);
    expect(() => requireSecretKeyWithPostgres(loadConfig(env({ DATABASE_URL: url })))).toThrow(
      /OPERATOR_SECRET_KEY/,
    );
    expect(loadStoreOf(env({ UPSTREAM_DB: "/srv/tp/up.sqlite" }))).toBe("/srv/tp/up.sqlite");
    expect(loadStoreOf(env({ DATA_DIR: "/srv/tp" }))).toBe(path.resolve("/srv/tp/upstream.sqlite"));
    expect(() => loadStoreOf(env({ DATABASE_URL: "mysql://x" }))).toThrow(
      /DATABASE_URL must be a PostgreSQL URL/,
    );
  });
});
