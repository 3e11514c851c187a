/**
 * The web's upstream client over a list of upstream nodes (UPSTREAM_URL "a,b"; app/upstream/
 * failover.ts), against the real reference upstream (fresh temporary database) and two kinds of
 * dead node: a port nobody listens on (the connection is refused: nothing was sent) and a server
 * that takes the connection and resets it once the request arrived (it may have reached an
 * upstream).
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as identityApi from "@contract/api/identity";
import * as marketApi from "@contract/api/market";
import { buildUpstream, type Upstream } from "../../upstream/app.js";
import { loadConfig } from "../../upstream/platform/config.js";
import { call, callerFor, send } from "../../app/upstream/client.server";
import { upstreamPool } from "../../app/utils/env.server";

let up: Upstream;
let live: string;
let dir: string;
const closers: (() => Promise<void>)[] = [];

/** A loopback URL whose port nobody listens on. */
async function deadUrl(): Promise<string> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as AddressInfo;
  await new Promise((r) => srv.close(r));
  return `http://127.0.0.1:${port}`;
}

/** A node that accepts each connection and resets it once the request arrives; counts them. */
async function resettingNode(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const srv = net.createServer((socket) => {
    connections++;
    socket.once("data", () => socket.resetAndDestroy());
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  closers.push(() => new Promise((r) => srv.close(() => r())));
  const { port } = srv.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

const caller = () => callerFor(new Request("http://web.test/"));

const upstreamUrlBefore = process.env.UPSTREAM_URL;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-failover-"));
  up = await buildUpstream(
    loadConfig({} as NodeJS.ProcessEnv, {
      port: 0,
      dbFile: path.join(dir, "up.sqlite"),
      dataDir: dir,
      rateLimit: false,
      simulate: false,
      smtpUrl: null,
    }),
  );
  live = await up.listen();
});

afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

// The unit files share a process (vitest.config.ts): the address goes back as it was.
afterAll(async () => {
  if (upstreamUrlBefore === undefined) delete process.env.UPSTREAM_URL;
  else process.env.UPSTREAM_URL = upstreamUrlBefore;
  await up?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the upstream client over several upstream nodes", () => {
  it("moves on from a dead URL to a live one and sticks to the one that answered", async () => {
    process.env.UPSTREAM_URL = `${await deadUrl()},${live}`;
    const r = await send(await caller(), marketApi.getCategories);
    expect(r.ok).toBe(true);
    expect(upstreamPool().url).toBe(live);

    // A node that breaks requests, first in the list: one call sees it, the next ones do not.
    const broken = await resettingNode();
    process.env.UPSTREAM_URL = `${broken.url},${live}`;
    expect((await send(await caller(), marketApi.getCategories)).ok).toBe(true);
    expect((await send(await caller(), marketApi.getCategories)).ok).toBe(true);
    expect(broken.connections()).toBe(1);
  });

  it("sends a POST on when its connection was refused: it was never sent", async () => {
    process.env.UPSTREAM_URL = `${await deadUrl()},${live}`;
    const r = await send(await caller(), identityApi.createAccountDemoForU, {}, { init: true });
    expect(r.ok).toBe(true);
  });

  it("never sends again a POST that may have reached an upstream, unless it has an idempotency key", async () => {
    const broken = await resettingNode();
    process.env.UPSTREAM_URL = `${broken.url},${live}`;
    const path = identityApi.createAccountDemoForU.path;
    // Reset after the request went out: the live node would have answered had it been sent again.
    const once = await call(await caller(), "POST", path, {}, { init: true, soft: true });
    expect(once).toMatchObject({ ok: false, network: true });
    expect(broken.connections()).toBe(1);
    // The failure moved the pool on: the next call goes to the live node first.
    expect(upstreamPool().url).toBe(live);

    const again = await resettingNode();
    process.env.UPSTREAM_URL = `${again.url},${live}`;
    const keyed = await call(
      await caller(),
      "POST",
      path,
      {},
      {
        init: true,
        soft: true,
        idempotencyKey: "failover-test-key-1",
      },
    );
    expect(keyed.ok).toBe(true);
    expect(again.connections()).toBe(1);
  });

  it("with every node away: a network result, or the 503 page for a page's call", async () => {
    process.env.UPSTREAM_URL = `${await deadUrl()},${await deadUrl()}`;
    const soft = await call(
      await caller(),
      "GET",
      marketApi.getCategories.path,
      {},
      { soft: true },
    );
    expect(soft).toMatchObject({ ok: false, network: true, msg: "ECONNREFUSED" });
    const thrown = await send(await caller(), marketApi.getCategories).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
  });
});
