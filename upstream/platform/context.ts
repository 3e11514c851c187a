/**
 * What every API area's routes are handed: the store, the configuration, the websocket hub, the
 * logger, the abuse limits and the services, each built once by the composition root (app.ts)
 * before any route registers. Nothing here is null at run time. The services are named by their
 * types only: the platform holds no module's code.
 */
import type { FastifyRequest } from "fastify";
import type pino from "pino";
import type { UpstreamConfig } from "./config.js";
import type { DB } from "./db.js";
import type { Envelope } from "./http/envelope.js";
import type { OperatorLookup } from "./http/operator-guard.js";
import type { Limits } from "./limits.js";
import type { Hub } from "./ws/hub.js";
import type { PushBroker } from "./ws/broker.js";
import type { Sequencer } from "./store/sequencer.js";
import type { PriceFeed } from "../modules/market/feed.js";
import type { CandleBook } from "../modules/market/candles.js";
import type { Engine } from "../modules/trading/engine.js";
import type { MoneyService } from "../modules/money/service.js";
import type { Deposits } from "../modules/money/deposits.js";
import type { Withdrawals } from "../modules/money/withdrawals.js";
import type { Uploads } from "../modules/uploads/service.js";
import type { CopyTrading } from "../modules/copy/service.js";

export interface AppContext {
  db: DB;
  config: UpstreamConfig;
  hub: Hub;
  /**
   * What carries the hub's pushes between upstream nodes (ws/broker.ts): in process without
   * NATS_URL, NATS with it. Also the leader's ticks, for a node mirroring its market.
   */
  broker: PushBroker;
  log: pino.Logger;
  /** The abuse limits (limits.ts), off when config.rateLimit is false. */
  limits: Limits;
  /** The price source: the simulator by default, the manual feed, or one the caller brings. */
  feed: PriceFeed;
  /** The candles of every instrument: the feed's own, or recorded from its ticks. */
  candles: CandleBook;
  /** The one owner of balances (modules/money/service.ts). */
  money: MoneyService;
  /** The order engine (modules/trading/engine.ts), following the feed's ticks. */
  engine: Engine;
  /** Copy trading (modules/copy/service.ts): on the leader, beside the engine it mirrors with. */
  copies: CopyTrading;
  /**
   * The one serial queue of the engine's commands (store/sequencer.ts): a route hands it each
   * order, close, cancel, stop change, demo reset and copy command, and answers once the
   * command's batch is durable.
   */
  sequencer: Sequencer;
  deposits: Deposits;
  withdrawals: Withdrawals;
  uploads: Uploads;
  /** Who may call an operator endpoint (http/operator-guard.ts). */
  operators: OperatorLookup;
  /** Envelope of a success, with the request's translated message. */
  ok<T>(req: FastifyRequest, data: T, msgKey?: string): Envelope<T>;
}
