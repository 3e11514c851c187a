/**
 * A web process that serves only the live endpoints, as server.ts does: /live through the app's
 * plain Node handler (app/live/node.server.ts) and /live.json through the real Remix request handler
 * (@remix-run/express) and route module, over the real bridge: what the benchmark and the integration
 * test talk to when the full built server is not wanted. `UPSTREAM_URL` points the bridge at the
 * upstream.
 *
 * As a program: `tsx tests/bench/live-web.ts` listens on PORT (0 = any) on 127.0.0.1 and prints
 * "LIVE_WEB_READY http://127.0.0.1:PORT"; it answers GET /__stats with the bridge's stats and RSS.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import * as liveJsonRoute from "../../app/routes/live[.]json";
import { getBridge } from "../../app/live/bridge.server";
import { serveLive } from "../../app/live/node.server";

function minimalBuild(): ServerBuild {
  const root = { default: () => null };
  return {
    mode: "production",
    entry: {
      module: {
        default: () => new Response("not found", { status: 404 }),
      },
    },
    routes: {
      root: { id: "root", path: "", module: root as never },
      "routes/live[.]json": {
        id: "routes/live[.]json",
        parentId: "root",
        path: "live.json",
        module: liveJsonRoute as never,
      },
    },
    assets: { entry: { imports: [], module: "" }, routes: {}, url: "", version: "bench" } as never,
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: true,
    } as never,
    isSpaMode: false,
  } as ServerBuild;
}

export interface LiveWeb {
  url: string;
  server: http.Server;
  close(): Promise<void>;
}

export async function startLiveWeb(port = 0): Promise<LiveWeb> {
  const app = express();
  app.disable("x-powered-by");
  app.post("/__stats/reset", (_req, res) => {
    getBridge().resetFlushStats();
    res.json({ ok: true });
  });
  app.get("/__stats", (_req, res) => {
    res.json({ ...getBridge().stats(), rss: process.memoryUsage().rss });
  });
  app.get("/live", (req, res, next) => {
    serveLive(req, res, req.ip ?? req.socket.remoteAddress ?? "").catch(next);
  });
  app.all(
    "*",
    createRequestHandler({
      build: minimalBuild(),
      mode: "production",
      getLoadContext: () => ({}) as never,
    }),
  );
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const web = await startLiveWeb(Number(process.env.PORT || 0));
  console.log(`LIVE_WEB_READY ${web.url}`);
  for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => process.exit(0));
}
