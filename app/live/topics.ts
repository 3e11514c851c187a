/**
 * Live topics: which ones exist, which are private, how a `?topics=` list is parsed and how the
 * payloads of a topic merge (the same rules on the server's bridge and in the browser's hook).
 * Pure and dependency-free: imported by both.
 *
 * Topics (upstream websocket pushes; payload types in @contract/ws):
 *   DAY_MARKET     [{Id, Code, Close, Open, High, Low, Volume, Change, Time, MarketStatus}]  merged by Id
 *   KLINE.{code}   [{period, Time, Open, High, Low, Close, Volume}]                           merged by period
 *   FOREX_TRADE    {ProfitsTotal, HazardRate, ...}   (private) the latest replaces
 *   FOREX_CLOSED   {ids: [...]}                      (private) events; ids accumulate until flushed
 * The topic names are the contract's (@contract/constants).
 */
import { PRIVATE_TOPICS as CONTRACT_PRIVATE_TOPICS, TOPIC, klineCode } from "@contract/constants";

export const PUBLIC_FIXED = [TOPIC.DAY_MARKET] as const;
export const PRIVATE_TOPICS: ReadonlySet<string> = new Set(CONTRACT_PRIVATE_TOPICS);
/** Most topics one stream may ask for. */
export const MAX_TOPICS = 16;

export type TopicKind = "market" | "kline" | "trade" | "closed";

export function topicKind(topic: string): TopicKind | null {
  if (topic === TOPIC.DAY_MARKET) return "market";
  if (topic === TOPIC.FOREX_TRADE) return "trade";
  if (topic === TOPIC.FOREX_CLOSED) return "closed";
  if (klineCode(topic) !== null) return "kline";
  return null;
}

export function isPrivateTopic(topic: string): boolean {
  return PRIVATE_TOPICS.has(topic);
}

export type ParsedTopics =
  | { ok: true; topics: string[] }
  | { ok: false; reason: "missing" | "too_many" | "unknown"; topic?: string };

/**
 * Parses "A,B,C" (also accepts repeated ?topics= values joined by the caller). Trims, drops empty
 * items and duplicates, keeps the order. Every topic must be known.
 */
export function parseTopics(raw: string | null | undefined): ParsedTopics {
  const items = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (items.length === 0) return { ok: false, reason: "missing" };
  const seen = new Set<string>();
  for (const t of items) {
    if (topicKind(t) === null) return { ok: false, reason: "unknown", topic: t.slice(0, 64) };
    seen.add(t);
  }
  if (seen.size > MAX_TOPICS) return { ok: false, reason: "too_many" };
  return { ok: true, topics: [...seen] };
}

/** The key an item of a merged-array topic is merged by (Id for quotes, period for candles). */
function itemKey(kind: TopicKind, item: unknown): string | number | undefined {
  if (!item || typeof item !== "object") return undefined;
  const o = item as Record<string, unknown>;
  const k = kind === "market" ? o.Id : kind === "kline" ? o.period : undefined;
  return typeof k === "string" || typeof k === "number" ? k : undefined;
}

/**
 * The state of one topic as the latest full value, with merge rules per kind. Used by the bridge
 * (snapshot per topic, pending changes per flush) and by the browser (state handed to listeners).
 */
export class TopicState {
  readonly kind: TopicKind;
  /** market/kline: key -> item (insertion order kept) */
  private items = new Map<string | number, unknown>();
  /** trade: the latest object; closed: accumulated ids */
  private value: unknown = undefined;
  private closedIds: unknown[] = [];
  private has = false;

  constructor(readonly topic: string) {
    const k = topicKind(topic);
    if (!k) throw new Error(`unknown topic ${topic}`);
    this.kind = k;
  }

  /** True once some data arrived (FOREX_CLOSED never has a snapshot). */
  get hasData(): boolean {
    return this.has;
  }

  /** Merges a payload in. Returns false when it was not of the expected shape (ignored). */
  apply(data: unknown): boolean {
    switch (this.kind) {
      case "market":
      case "kline": {
        if (!Array.isArray(data)) return false;
        for (const item of data) {
          const key = itemKey(this.kind, item);
          if (key === undefined) continue;
          this.items.set(key, item);
        }
        this.has = true;
        return true;
      }
      case "trade":
        if (!data || typeof data !== "object") return false;
        this.value = data;
        this.has = true;
        return true;
      case "closed": {
        const ids = (data as { ids?: unknown } | null)?.ids;
        if (!Array.isArray(ids)) return false;
        for (const id of ids) if (!this.closedIds.includes(id)) this.closedIds.push(id);
        this.has = this.closedIds.length > 0;
        return true;
      }
    }
  }

  /** The full value: array for market/kline, object for trade, {ids} for closed (undefined if none). */
  get(): unknown {
    if (!this.has) return undefined;
    switch (this.kind) {
      case "market":
      case "kline":
        return [...this.items.values()];
      case "trade":
        return this.value;
      case "closed":
        return { ids: [...this.closedIds] };
    }
  }

  /** Empties the state (used for pending changes after each flush). */
  clear(): void {
    this.items.clear();
    this.value = undefined;
    this.closedIds = [];
    this.has = false;
  }
}
