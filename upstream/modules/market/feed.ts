/**
 * The contract between the price source and everything that consumes prices (candles, the order
 * engine, the websocket). The simulator implements it; a real feed can replace it without touching
 * the engine. Tests use a feed whose prices they set by hand.
 */
export interface Quote {
  /** Instrument id (instruments.id). */
  id: number;
  code: string;
  /** Last price. */
  price: number;
  /** Day's open, high, low and volume. */
  open: number;
  high: number;
  low: number;
  volume: number;
  /** Change against the day's open, in percent. */
  change: number;
  /** Time of the tick, ms since epoch. */
  time: number;
}

export interface PriceFeed {
  /** The latest quote of an instrument, by code or id. */
  quote(codeOrId: string | number): Quote | undefined;
  /** Every current quote. */
  all(): Quote[];
  /** Called once per tick with the quotes that changed in it. Returns an unsubscribe function. */
  onTick(listener: (changed: Quote[]) => void): () => void;
  /** True while the instrument's market is open now. */
  isOpen(codeOrId: string | number, at?: number): boolean;
  start(): void;
  stop(): void;
}
