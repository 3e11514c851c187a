/** Entry point of the reference upstream: `tsx upstream/main.ts` (npm start runs it for you). */
import {
  ConfigError,
  loadConfig,
  requireSecretKeyWithPostgres,
  type UpstreamConfig,
} from "./platform/config.js";
import pino from "pino";
import { buildUpstream } from "./app.js";
import { startClusterNode } from "./cluster.js";

let config: UpstreamConfig;
try {
  config = requireSecretKeyWithPostgres(loadConfig());
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(1);
}
// With DATABASE_URL the node joins the cluster (cluster.ts): it leads the engine or stands by.
const node =
  config.databaseUrl === null
    ? null
    : await startClusterNode(
        { ...config, databaseUrl: config.databaseUrl },
        {
          log: pino({ level: config.logLevel, base: { svc: "upstream-node" } }),
          onLostLeadership: (why) => {
            console.error(`Lost the order engine's leadership (${why}); stopping this node.`);
            process.exit(1);
          },
        },
      );
const up = node ? node.upstream() : await buildUpstream(config);
if (config.devOutbox) {
  up.ctx.log.warn(
    "DEV_OUTBOX IS ON: verification codes are kept in the outbox and served by GET /dev/outbox?to=ADDRESS. " +
      "Set SMTP_URL to deliver real mail; never expose this upstream publicly with DEV_OUTBOX on.",
  );
}
const unsent = [
  config.smtpUrl === null ? "e-mail (SMTP_URL)" : null,
  config.smsWebhookUrl === null ? "SMS (SMS_WEBHOOK_URL)" : null,
].filter((c) => c !== null);
if (!config.devOutbox && unsent.length > 0) {
  up.ctx.log.warn(
    `No delivery is configured for ${unsent.join(" and ")}: codes cannot be sent there, so sign-up, ` +
      "password reset and binding by that channel answer 'delivery is not configured'. The demo account works.",
  );
}
const url = node ? node.url : await up.listen();
up.ctx.log.info({ url }, "upstream listening");
// The web's launcher waits for this exact line on stdout.
console.log(`UPSTREAM_READY ${url}`);

let closing = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    (node ? node.close() : up.close()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
