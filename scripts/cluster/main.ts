/**
 * `npm run cluster`: the whole product on PostgreSQL, NATS, two upstream nodes, two web nodes and
 * HAProxy on PORT (default 3000), on this machine (docs/deploy.md). Installs the Debian packages
 * it needs (as root), builds the web, prints one line per process (role, URL, pid) and stops them
 * all on Ctrl-C. Data stays in DATA_DIR/cluster (default ./data/cluster) between runs.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { startCluster } from "./launch.js";

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_000) {
  console.error("PORT must be a port number below 65000 (the nodes use the ports above it).");
  process.exit(1);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data", "cluster");

execFileSync("bash", ["scripts/ensure-services.sh"], { stdio: "inherit" });
execFileSync("npx", ["remix", "build"], {
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production" },
});

const cluster = await startCluster({
  port,
  dataDir,
  log: (line) => console.log(`cluster: ${line}`),
});

const line = (role: string, url: string, pid: number) =>
  console.log(`${role.padEnd(28)} ${url.padEnd(44)} pid ${pid}`);
line("haproxy (the product)", cluster.url, cluster.haproxy.pid);
for (const w of cluster.webs) line(`${w.name} (web)`, w.url, w.pid);
for (const u of cluster.upstreams) {
  const h = await u.health();
  line(`${u.name} (${h?.role ?? "starting"})`, u.url, u.pid);
}
line("postgresql", cluster.pg.url.replace(/\/[^/]*$/, "/tradepost"), cluster.pg.pid);
line("nats", cluster.nats.url, cluster.nats.pid);
console.log(`Logs in ${path.join(dataDir, "logs")}. Ctrl-C stops everything.`);

let stopping = false;
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    console.log("stopping the cluster ...");
    cluster.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
