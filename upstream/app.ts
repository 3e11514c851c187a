/**
 * Builds the reference upstream: one Fastify server for HTTP and the /v1/ws websocket, over one
 * store (SQLite, or PostgreSQL with DATABASE_URL). The composition root: every service is built
 * once (buildServices), before any route, and handed to each API area's routes
 * (upstream/modules/<domain>/routes.ts) in the context.
 *
 * A node is the leader (the default, and the only role on SQLite) or a standby (cluster.ts):
 * - the leader runs the market, the order engine, the strategy traders and the timers, and
 *   publishes its ticks and pushes through the broker;
 * - a standby mirrors the leader's ticks (market/mirror-feed.ts), serves the reads of the store
 *   and its websocket clients, and sends every command and every read of the engine's memory on
 *   to the leader (platform/cluster/forward.ts). It builds no engine: `ctx.engine` refuses.
 */
import fs from "node:fs";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import formbody from "@fastify/formbody";
import pino from "pino";
import { storeOf, type UpstreamConfig } from "./platform/config.js";
import { openStore, storeAnswers, type DB, type SqliteDb } from "./platform/db.js";
import { CODE_INTERNAL, CODE_OK } from "./platform/http/envelope.js";
import { z } from "zod";
import { okEnvelope } from "@contract/api/endpoint";
import { clientErrorHandler, registerErrorHandling } from "./platform/http/errors.js";
import { normaliseLang, translate, type Lang } from "./platform/i18n.js";
import { createHub, type Hub } from "./platform/ws/hub.js";
import { connectNatsBroker, createLocalBroker, type PushBroker } from "./platform/ws/broker.js";
import type { PriceFeed } from "./modules/market/feed.js";
import { createSimulator } from "./modules/market/simulator.js";
import { createManualFeed } from "./modules/market/manual-feed.js";
import type { CarriedQuote } from "./modules/market/market-core.js";
import { registerMarketRoutes } from "./modules/market/routes.js";
import { registerAccountsRoutes } from "./modules/identity/routes.js";
import { registerSettingsRoutes } from "./modules/settings/routes.js";
import { registerDevRoutes } from "./modules/dev/routes.js";
import { registerTradingRoutes } from "./modules/trading/routes.js";
import { registerMoneyRoutes } from "./modules/money/routes.js";
import { registerUploadRoutes } from "./modules/uploads/routes.js";
import { registerOperatorRoutes } from "./modules/operators/routes.js";
import { guardOperator } from "./platform/http/operator-guard.js";
import { guardSession } from "./platform/http/auth.js";
import { DomainError } from "./platform/errors.js";
import type { AppContext } from "./platform/context.js";
import { hasOperators, operatorOfToken } from "./modules/operators/accounts.js";
import { Deposits } from "./modules/money/deposits.js";
import { Withdrawals } from "./modules/money/withdrawals.js";
import { SWEEP_INTERVAL_MS, Uploads } from "./modules/uploads/service.js";
import { candleBookOf, startMarketPushes } from "./modules/market/pushes.js";
import type { Permission } from "@contract/operators";
import { registerVerifyRoutes } from "./modules/verify/routes.js";
import { registerCompanyRoutes } from "./modules/company/routes.js";
import { registerContentRoutes } from "./modules/content/routes.js";
import { registerFollowRoutes } from "./modules/follow/routes.js";
import { isPerson, registerNotifyRoutes } from "./modules/notify/routes.js";
import { MarginCallWatch } from "./modules/notify/margin-calls.js";
import { ExpirySweep } from "./modules/trading/expiry-sweep.js";
import { registerAlertRoutes } from "./modules/alerts/routes.js";
import { PriceAlerts } from "./modules/alerts/service.js";
import { registerWatchlistRoutes } from "./modules/watchlists/routes.js";
import { registerChartRoutes } from "./modules/chart/routes.js";
import { NoticeSender } from "./modules/notify/delivery.js";
import { sealingKeyOf } from "./modules/identity/security-routes.js";
import { registerCopyRoutes } from "./modules/copy/routes.js";
import { registerStatementRoutes } from "./modules/statements/routes.js";
import { MonthlyStatements } from "./modules/statements/monthly.js";
import { CopyTrading } from "./modules/copy/service.js";
import { CopyPusher } from "./modules/copy/pushes.js";
import { StrategyRunner } from "./modules/follow/strategies.js";
import { RankCheckpoints } from "./modules/follow/checkpoints.js";
import { DailyRisk } from "./modules/follow/risk.js";
import multipart from "@fastify/multipart";
import { createEngine } from "./modules/trading/engine.js";
import { Sequencer, SequencerStopped } from "./platform/store/sequencer.js";
import { IdempotencySweep } from "./platform/idempotency.js";
import { keyIndexOf } from "./platform/idempotency-index.js";
import { loadKeyIndex } from "./platform/idempotency-store.js";
import { TradePusher } from "./modules/trading/pushes.js";
import { moneyOf } from "./modules/money/service.js";
import { registerOpenApi } from "./platform/http/openapi.js";
import { Limits } from "./platform/limits.js";
import { createMirrorFeed } from "./modules/market/mirror-feed.js";
import { forwardToLeader, type LeaderUrlOf } from "./platform/cluster/forward.js";
import type { PgStore } from "./platform/store/pg.js";
import { syncLater } from "./platform/store/sqlite-wal-sync.js";
import type { Engine } from "./modules/trading/engine.js";
import os from "node:os";

declare module "fastify" {
  interface FastifyRequest {
    lang: Lang;
  }
}

export interface Upstream {
  app: FastifyInstance;
  ctx: AppContext;
  /** Listens on config.host:config.port (port 0 picks a free one); resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
  /** The ranking's strategy traders' runner, when they trade (see config.strategies). */
  strategies: StrategyRunner | null;
  /** The sender of notifications beyond the app (the leader's; null on a standby). */
  noticeSender: NoticeSender | null;
  /** The monthly statement e-mail's job (the leader's; null on a standby). */
  monthlyStatements: MonthlyStatements | null;
  /** Providers' daily figures and the risk disclosure (follow/risk.ts); null on a standby. */
  dailyRisk: DailyRisk | null;
}

/** This node's part among the upstream nodes (cluster.ts); one node alone is the leader. */
export interface NodeRole {
  /** The node's name (cluster_leader.node, /healthz). */
  id: string;
  role: "leader" | "standby";
  /** A standby: where the leader is (null while no node leads). */
  leaderUrl?: LeaderUrlOf;
  /** A leader on PostgreSQL: the fence its write transactions run (store/leader-lock.ts). */
  fence?: string;
}

/** The node of a single upstream process: the leader. */
export function soleNode(): NodeRole {
  return { id: `${os.hostname()}:${process.pid}`, role: "leader" };
}

/**
 * True when a standby serves this route itself: a read of the store, not of the engine (the
 * contract's `readsEngine`, route.ts puts it in the route's config) and not /dev.
 */
function standbyServes(method: string | string[], url: string, readsEngine: boolean): boolean {
  const methods = Array.isArray(method) ? method : [method];
  const reads = methods.every((m) => m === "GET" || m === "HEAD");
  return reads && !readsEngine && !url.startsWith("/dev/");
}

/** What a standby's context holds in place of the engine's parts: any use is a fault of the routing. */
function onLeaderOnly<T extends object>(): T {
  return new Proxy({} as T, {
    get(_target, prop) {
      throw new DomainError("leader_unavailable", CODE_INTERNAL, { use: String(prop) }, 503);
    },
  });
}

/** GET /health: the process answers, with its websocket connections. */
const HEALTH_SCHEMA = {
  summary: "The process answers (its open websockets)",
  response: { 200: okEnvelope(z.object({ ws: z.number().int() })) },
};

/** What GET /healthz reports of a node (docs/deploy.md). */
const NodeHealth = z.object({
  node: z.string().describe("host:pid, or UPSTREAM_NODE_NAME"),
  role: z.enum(["leader", "standby"]),
  store: z.object({ dialect: z.enum(["sqlite", "postgres"]), ok: z.boolean() }),
  broker: z.object({
    kind: z.enum(["local", "nats"]),
    connected: z.boolean(),
    url: z.string().optional().describe("the NATS server(s), without credentials"),
  }),
  sequencer: z
    .object({
      batches: z.number().int(),
      commands: z.number().int(),
      largestBatch: z.number().int(),
      loopMs: z
        .number()
        .nonnegative()
        .describe(
          "ms the event loop spent on the batches, summed (deciding; on SQLite writing too)",
        ),
      writeMs: z
        .number()
        .nonnegative()
        .describe("ms from each batch leaving the event loop to durable, summed"),
      longestWriteMs: z.number().nonnegative().describe("the longest of those writes, ms"),
      waiting: z.number().int().describe("commands queued for the next batch"),
    })
    .nullable()
    .describe("the leader's group commit since it started; null on a standby"),
  ws: z.number().int(),
});

/** GET /healthz: 200 when the store and the broker answer, else 503 with what is wrong. */
const HEALTHZ_SCHEMA = {
  summary: "The node's role, store, broker and sequencer, for load balancers and operators",
  response: {
    200: okEnvelope(NodeHealth),
    503: z
      .object({ code: z.literal(CODE_INTERNAL), msg: z.literal("degraded"), data: NodeHealth })
      .describe("the store or the broker does not answer"),
  },
};

export async function buildUpstream(
  config: UpstreamConfig,
  opts: {
    feed?: PriceFeed | ((db: DB) => PriceFeed);
    node?: NodeRole;
    /**
     * A leader taking over: the quotes its standby mirrored, which its market starts from where
     * they are newer than the store's (a leader's first orders need no new tick).
     */
    carriedQuotes?: readonly CarriedQuote[];
    /**
     * What the node does when a batch of commands could not be written (store/sequencer.ts): its
     * memory no longer equals the store. Default: log it and exit, so that a standby (or the web's
     * supervisor of the embedded upstream) starts over from what was committed.
     */
    onWriteFailure?: (err: unknown) => void;
  } = {},
): Promise<Upstream> {
  const node = opts.node ?? soleNode();
  const standby = node.role === "standby";
  const log = pino({ level: config.logLevel, base: { svc: "upstream" } });
  // Pushes between upstream nodes go through NATS when NATS_URL names it, else stay in process.
  const broker: PushBroker = config.natsUrl
    ? await connectNatsBroker({ url: config.natsUrl, log })
    : createLocalBroker();
  const db = openStore(storeOf(config), {
    onMigrated: (files) => {
      if (files.length > 0) log.info({ files }, "store migrated");
    },
  });
  // SQLite's batches become durable off the event loop (store/sqlite-wal-sync.ts, decision 0029).
  if (db.dialect === "sqlite" && !(db as SqliteDb).memory)
    syncLater(db as SqliteDb, (message) => log.warn({ message }, "checkpoint of the store's log"));
  if (node.fence !== undefined && db.dialect === "postgres") {
    (db as PgStore).fenceWith(node.fence);
    // The leader's barrier, before the engine reads the store: one fenced write transaction waits
    // for any write a former leader began before it lost the lock (both take the write lock), and
    // proves this node leads.
    db.transaction(() => undefined)();
  }
  // The node that writes learns which idempotency keys exist, after the barrier (no other node
  // writes any longer); until it has, a command's key is read from the store as before.
  if (!standby)
    loadKeyIndex(db)
      .then(() => log.debug({ keys: keyIndexOf(db).size }, "idempotency keys indexed"))
      .catch((err) => log.warn({ err }, "idempotency keys not indexed; each one is read"));
  const tp = config.trustProxy;
  const app = Fastify({
    logger: false,
    bodyLimit: 6 * 1024 * 1024,
    // A number of hops: trust that many proxies nearest to the upstream.
    trustProxy: typeof tp === "number" ? (_addr: string, hop: number) => hop < tp : tp,
    clientErrorHandler,
  });
  await app.register(formbody);
  // One file per request, at most UPLOAD_MAX_BYTES; no other parts beyond a few small fields.
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 4, parts: 5, fieldSize: 1024 },
  });
  const hub = createHub(app.server, db, broker, {
    checkFrames: config.checkAnswers,
    onDrift: (err) => log.error({ err }, "a websocket frame drifts from the contract; not sent"),
  });
  const onWriteFailure =
    opts.onWriteFailure ??
    ((err: unknown) => {
      log.fatal({ err }, "a batch of commands could not be written; stopping this node");
      process.exit(1);
    });
  const ctx = buildServices({
    config,
    db,
    hub,
    broker,
    log,
    feed: opts.feed,
    carried: opts.carriedQuotes,
    standby,
    onWriteFailure,
  });
  if (standby) {
    // Registered before the routes: each route a standby does not serve is sent to the leader,
    // which checks its caller and fields itself.
    const leaderUrl = node.leaderUrl ?? (() => null);
    app.addHook("onRoute", (r) => {
      if (standbyServes(r.method, r.url, r.config?.readsEngine === true)) return;
      r.handler = (req, reply) => forwardToLeader(leaderUrl, req, reply, node.id);
      r.preValidation = undefined;
      r.schema = undefined;
    });
  }

  app.decorateRequest("lang", "en" as Lang);
  app.decorateRequest("operator", null);
  // Checks every operator endpoint's caller before its handler (platform/http/route.ts).
  app.decorate("operatorGuard", (req: FastifyRequest, need: Permission) =>
    guardOperator(ctx.operators, req, need),
  );
  app.decorate("sessionGuard", async (req: FastifyRequest, real: boolean) => {
    const u = await guardSession(db, req);
    if (real && u.is_demo) throw new DomainError("demo_only_true_account");
  });
  app.addHook("onRequest", async (req) => {
    req.lang = normaliseLang(req.headers["lang"]);
  });

  registerErrorHandling(app, log);
  await registerOpenApi(app, { checkAnswers: config.checkAnswers });

  app.get("/health", { schema: HEALTH_SCHEMA }, async () => ({
    code: CODE_OK,
    msg: "ok",
    data: { ws: hub.connectionCount() },
  }));
  // The node's role, its store and its broker, for load balancers and operators (docs/deploy.md).
  // A leader adds its sequencer's figures since it started: how many batches it wrote, how many
  // commands they held and the largest, so that group commit can be seen at work (commands per
  // batch) and the commands waiting for the next batch.
  app.get("/healthz", { schema: HEALTHZ_SCHEMA }, async (_req, reply) => {
    const store = { dialect: db.dialect, ok: storeAnswers(db) };
    const broker = ctx.broker.status();
    const ok = store.ok && (broker.kind === "local" || broker.connected);
    const sequencer = standby ? null : { ...ctx.sequencer.stats, waiting: ctx.sequencer.waiting };
    reply.status(ok ? 200 : 503);
    return {
      code: ok ? CODE_OK : CODE_INTERNAL,
      msg: ok ? "ok" : "degraded",
      data: { node: node.id, role: node.role, store, broker, sequencer, ws: hub.connectionCount() },
    };
  });

  // API areas. Each file registers its own routes; order does not matter.
  // (areas register here)
  registerMarketRoutes(app, ctx);
  registerAccountsRoutes(app, ctx);
  registerSettingsRoutes(app, ctx);
  registerDevRoutes(app, ctx);
  registerTradingRoutes(app, ctx);
  registerMoneyRoutes(app, ctx);
  registerContentRoutes(app, ctx);
  registerFollowRoutes(app, ctx, { leader: !standby });
  registerCopyRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerOperatorRoutes(app, ctx);
  registerVerifyRoutes(app, ctx);
  registerCompanyRoutes(app, ctx);
  registerNotifyRoutes(app, ctx, { leader: !standby });
  registerStatementRoutes(app, ctx);
  // Price alerts are armed on the leader, beside the feed it follows.
  const alerts = standby
    ? null
    : new PriceAlerts({
        db,
        feed: ctx.feed,
        run: (command) => ctx.sequencer.run(command),
        log,
      });
  registerAlertRoutes(app, ctx, alerts);
  registerWatchlistRoutes(app, ctx);
  registerChartRoutes(app, ctx);
  alerts?.start();
  // Notifications beyond the app (Web Push, e-mail) are sent by the leader.
  const noticeSender = standby
    ? null
    : new NoticeSender({
        db,
        mail: ctx,
        sealingKey: () => sealingKeyOf(ctx),
        subject:
          config.webUrl ?? `mailto:${/<([^>]+)>/.exec(config.mailFrom)?.[1] ?? config.mailFrom}`,
        log,
        pushCa: config.pushCaFile ? fs.readFileSync(config.pushCaFile, "utf8") : null,
      });
  noticeSender?.start();
  // Margin calls are noticed on the leader, from the engine's figures.
  const marginCalls = standby
    ? null
    : new MarginCallWatch({
        db,
        engine: ctx.engine,
        run: (command) => ctx.sequencer.run(command),
        isPerson: (userId) => isPerson(ctx, userId),
        log,
      });
  marginCalls?.start();
  // Pending orders' expiries are swept on the leader, which holds them.
  const expiries = standby
    ? null
    : new ExpirySweep({
        engine: ctx.engine,
        run: (command) => ctx.sequencer.run(command),
        log,
      });
  expiries?.start();

  // The engine's events and figures reach the websocket as FOREX_CLOSED and FOREX_TRADE pushes.
  const pusher = standby ? null : new TradePusher(hub, ctx.engine, log);
  // Copies' figures reach their owners as COPY_TRADE pushes.
  const copyPusher = standby ? null : new CopyPusher(hub, db, ctx.engine, ctx.copies, log);
  // The ranking's strategy traders trade on the simulated market (or any feed when forced on).
  const strategies =
    !standby &&
    (config.strategies === "on" ||
      (config.strategies === "auto" &&
        config.simulate &&
        config.marketFeed === "simulator" &&
        opts.feed === undefined))
      ? new StrategyRunner({
          db,
          money: ctx.money,
          engine: ctx.engine,
          feed: ctx.feed,
          intervalMs: config.strategyIntervalMs,
          seed: config.seed,
          log,
        })
      : null;

  // Uploads nothing names (a deposit or verification never declared) are swept at start-up and
  // every SWEEP_INTERVAL_MS; the timer is unref'd, so it never keeps the process alive.
  const sweepUploads = () => {
    try {
      const r = ctx.uploads.sweep();
      log.info(r, "orphan uploads swept");
    } catch (err) {
      log.error({ err }, "orphan upload sweep failed");
    }
  };
  let sweepTimer: NodeJS.Timeout | null = null;
  const keySweep = standby
    ? null
    : new IdempotencySweep({
        db,
        run: (command) => ctx.sequencer.run(command),
        onError: (err) => log.error({ err }, "expired idempotency keys could not be deleted"),
      });

  // The monthly statement e-mails (statements/monthly.ts) are taken on and sent by the leader.
  const monthlyStatements = standby
    ? null
    : new MonthlyStatements({
        db,
        run: (command) => ctx.sequencer.run(command),
        mail: ctx,
        webUrl: config.webUrl ?? null,
        log,
      });

  // The ranking's checkpoints (follow/checkpoints.ts) move forward on the leader.
  const rankCheckpoints = standby
    ? null
    : new RankCheckpoints({
        db,
        run: (command) => ctx.sequencer.run(command),
        onError: (err) => log.error({ err }, "the ranking's checkpoints could not be advanced"),
      });

  // Providers' daily figures (risk score, returns) and the risk disclosure (follow/risk.ts).
  const dailyRisk = standby
    ? null
    : new DailyRisk({
        db,
        run: (command) => ctx.sequencer.run(command),
        onError: (err) => log.error({ err }, "the daily risk figures could not be computed"),
      });

  return {
    app,
    ctx,
    strategies,
    noticeSender,
    monthlyStatements,
    dailyRisk,
    async listen() {
      if (!standby) {
        sweepUploads();
        sweepTimer = setInterval(sweepUploads, SWEEP_INTERVAL_MS);
        sweepTimer.unref();
        keySweep?.start();
        rankCheckpoints?.start();
        monthlyStatements?.start();
        dailyRisk?.start();
      }
      const address = await app.listen({ host: config.host, port: config.port });
      ctx.feed.start();
      strategies?.start();
      return address.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1");
    },
    async close() {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      keySweep?.stop();
      rankCheckpoints?.stop();
      monthlyStatements?.stop();
      await dailyRisk?.stop();
      strategies?.stop();
      pusher?.stop();
      copyPusher?.stop();
      alerts?.stop();
      await noticeSender?.stop();
      marginCalls?.stop();
      expiries?.stop();
      if (!standby) {
        ctx.copies.stop();
        ctx.engine.stop();
      }
      ctx.feed.stop();
      await hub.close();
      await broker.close();
      await app.close();
      // Every request is answered: what they and the timers queued is written before the store
      // closes, and nothing queued later reaches it.
      if (!standby) await ctx.sequencer.close();
      db.close();
    },
  };
}

/**
 * Builds every service once, in the order their tick listeners must run: the market's candles and
 * websocket pushes first, then the order engine, which acts on a tick after it is recorded.
 */
function buildServices(deps: {
  config: UpstreamConfig;
  db: DB;
  hub: Hub;
  broker: PushBroker;
  log: pino.Logger;
  feed?: PriceFeed | ((db: DB) => PriceFeed);
  carried?: readonly CarriedQuote[];
  standby: boolean;
  onWriteFailure: (err: unknown) => void;
}): AppContext {
  const { config, db, hub, broker, log, standby } = deps;
  const feed = standby
    ? createMirrorFeed(db, broker, { alwaysOpen: config.marketAlwaysOpen })
    : feedOf(config, db, deps.feed, deps.carried);
  const startupMs = (feed as { startupMs?: number }).startupMs;
  if (startupMs !== undefined) log.info({ ms: startupMs }, "market ready (seed and history)");
  // The leader's ticks reach the standby nodes' mirrors (nothing is sent without NATS).
  if (!standby) feed.onTick((changed) => broker.publishTick(changed));
  const candles = candleBookOf(db, feed);
  // A standby's clients get the leader's pushes through the broker; it serves snapshots only.
  startMarketPushes({ db, hub, feed, book: candles, publish: !standby });
  const money = moneyOf(db);
  // Every write of the leader's state goes through it: users' commands, the tick's bookings.
  const sequencer = standby
    ? onLeaderOnly<Sequencer>()
    : new Sequencer({
        db,
        onWriteFailure: deps.onWriteFailure,
        transaction: (command) => money.transaction(command),
        onFollowUpError: (err) =>
          log.error({ err }, "a command's follow-up failed and was rolled back"),
      });
  // The leader's candle writes are commands of its sequencer, written behind with its batches.
  if (!standby) candles.writeVia(commandOn(sequencer, log, "the candles' write failed"));
  // The order engine follows the feed's ticks and loads open and pending orders from the store.
  const engine = standby
    ? onLeaderOnly<Engine>()
    : createEngine({ db, feed, money, log, schedule: scheduleOn(sequencer, log) });
  // Copy trading mirrors the engine's events and follows the ticks after the engine has booked them.
  const copies = standby
    ? onLeaderOnly<CopyTrading>()
    : new CopyTrading({ db, money, engine, log });
  return {
    db,
    config,
    hub,
    broker,
    log,
    limits: new Limits(db, config.rateLimit, log),
    feed,
    candles,
    money,
    engine,
    copies,
    sequencer,
    deposits: new Deposits(db),
    withdrawals: new Withdrawals({
      db,
      freeMarginMicro: (userId) => engine.accountValues(userId).freeMarginMicro,
    }),
    uploads: new Uploads(db, config.dataDir, config.uploadOrphanGraceSeconds),
    operators: {
      scriptToken: config.operatorToken,
      hasOperators: () => hasOperators(db),
      operatorOfToken: (token) => operatorOfToken(db, token),
    },
    ok: (req, data, msgKey = "ok") => ({ code: CODE_OK, msg: translate(req.lang, msgKey), data }),
  };
}

/**
 * Queues what the engine sets off on its own on the sequencer. Nobody waits for its answer: its
 * bookings log their own failures; once the sequencer stopped (the node stops leading) a tick's
 * bookings are left to the next leader, which books them on its first tick.
 */
function scheduleOn(sequencer: Sequencer, log: pino.Logger): (command: () => void) => void {
  const run = commandOn(sequencer, log, "a scheduled engine command failed");
  return (command) => void run(command);
}

/**
 * A command of the sequencer nobody waits for the answer of: settles once it ran or was refused,
 * its failure logged as `failed` (but not the sequencer's stop: the node stops leading).
 */
function commandOn(
  sequencer: Sequencer,
  log: pino.Logger,
  failed: string,
): (command: () => void) => Promise<void> {
  return (command) =>
    sequencer.run(command).then(
      () => undefined,
      (err: unknown) => {
        if (!(err instanceof SequencerStopped)) log.error({ err }, failed);
      },
    );
}

/** The market simulator unless the caller brings a feed (or a factory given the store). */
function feedOf(
  config: UpstreamConfig,
  db: DB,
  given: PriceFeed | ((db: DB) => PriceFeed) | undefined,
  carried: readonly CarriedQuote[] | undefined,
): PriceFeed {
  if (typeof given === "function") return given(db);
  if (given) return given;
  if (config.marketFeed === "manual")
    return createManualFeed(db, {
      history: true,
      seed: config.seed,
      alwaysOpen: config.marketAlwaysOpen,
      carried,
    });
  return createSimulator(db, { ...config, carried });
}
