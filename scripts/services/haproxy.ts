/**
 * HAProxy of Debian's package in front of the web nodes (`npm run cluster`, the cluster test): one
 * HTTP frontend on a loopback port, round robin over the web nodes with no stickiness, each checked
 * on GET /healthz every second. The timeouts let a server-sent event stream or a websocket stay
 * open for an hour (`timeout tunnel`; the web sends a comment line well within `timeout server`).
 * The same configuration, with real addresses, is in docs/deploy.md.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface HaproxyServer {
  url: string;
  port: number;
  pid: number;
  configFile: string;
  stop(): Promise<void>;
}

/** The configuration for a frontend on `port` over the web nodes' base URLs. */
export function haproxyConfig(
  port: number,
  webUrls: readonly string[],
  maxconn: number = 20_000,
): string {
  const servers = webUrls.map((u, i) => {
    const { hostname, port: p } = new URL(u);
    return `  server web${i + 1} ${hostname}:${p} check inter 1s fall 2 rise 2`;
  });
  return [
    "global",
    `  maxconn ${maxconn}`,
    "defaults",
    "  mode http",
    "  option forwardfor",
    "  timeout connect 5s",
    "  timeout client 1h",
    "  timeout server 1h",
    "  timeout tunnel 1h",
    "  timeout http-request 15s",
    "  # A node that fails its check is taken out; a request it dropped is not replayed.",
    "  retries 2",
    "  option redispatch",
    "frontend tradepost",
    `  bind 127.0.0.1:${port}`,
    "  # The web reads the Host header; a browser's own X-Forwarded-Host never reaches it.",
    "  http-request del-header X-Forwarded-Host",
    "  default_backend web",
    "backend web",
    "  balance roundrobin",
    "  option httpchk GET /healthz",
    "  http-check expect status 200",
    ...servers,
    "",
  ].join("\n");
}

/** Connections HAProxy may hold here: two descriptors each (client and server) within the hard limit. */
function maxconnHere(): number {
  const hard = Number(execFileSync("bash", ["-c", "ulimit -Hn"], { encoding: "utf8" }).trim());
  return Number.isFinite(hard) ? Math.max(1_000, Math.floor((hard - 200) / 2)) : 20_000;
}

export function haproxyBin(): string {
  const found = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((b) => fs.existsSync(b));
  if (!found)
    throw new Error(
      "haproxy is not installed: run `bash scripts/ensure-services.sh` (as root it installs Debian's haproxy).",
    );
  return found;
}

export async function startHaproxy(o: {
  port: number;
  webUrls: readonly string[];
  logFile?: string;
}): Promise<HaproxyServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tradepost-haproxy-"));
  const configFile = path.join(dir, "haproxy.cfg");
  fs.writeFileSync(configFile, haproxyConfig(o.port, o.webUrls, maxconnHere()));
  const out = o.logFile ? fs.openSync(o.logFile, "a") : "ignore";
  // The soft limit of open files raised to the hard one, which maxconnHere() fits within.
  const child: ChildProcess = spawn(
    "bash",
    ["-c", 'ulimit -n "$(ulimit -Hn)"; exec "$0" -db -f "$1"', haproxyBin(), configFile],
    { stdio: ["ignore", out, out] },
  );
  const url = `http://127.0.0.1:${o.port}`;
  const until = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with code ${child.exitCode}`);
    try {
      await fetch(url + "/healthz", { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > until) throw new Error("haproxy did not accept connections within 15 s");
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    port: o.port,
    pid: child.pid!,
    configFile,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }).then(() => fs.rmSync(dir, { recursive: true, force: true })),
  };
}
