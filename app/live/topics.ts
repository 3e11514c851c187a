/**
 * Live topics: which ones exist, which are private, how a `?topics=` list is parsed and how the
 * payloads of a topic merge (the same rules on the server's bridge and in the browser's hook).
 * Pure and dependency-free: imported by both.
 *
 * Topics (upstream websocket pushes; payload types in @contract/ws):
 *   DAY_MARKET     [{Id, Code, Close, Open, High, Low, Volume, Change, Time, MarketStatus}]  merged by Id
 *   KLINE.{code}   [{period, Time, Open, High, Low, Close, Volume}]                           merged by period
 * Items of the two merged-array topics are merged field by field: a browser stream's changes carry
 * an item's key and only the fields that differ from the previous flush (`TopicState.changes`), so
 * a tick that moves a price and a volume sends those two fields, not the whole quote.
 *   FOREX_TRADE    {ProfitsTotal, HazardRate, ...}   (private) the latest replaces
 *   FOREX_CLOSED   {ids: [...]}                      (private) events; ids accumulate until flushed
 *   COPY_TRADE     {copies: [...]}                   (private) the latest replaces
 *   NOTICE         {unread}                          (private) the latest replaces
 * The topic names are the contract's (@contract/constants).
 */
import { PRIVATE_TOPICS as CONTRACT_PRIVATE_TOPICS, TOPIC, klineCode } from "@contract/constants";

const PRIVATE_TOPICS: ReadonlySet<string> = new Set(CONTRACT_PRIVATE_TOPICS);
/** Most topics one stream may ask for. */
export const MAX_TOPICS = 16;

type TopicKind = "market" | "kline" | "trade" | "closed";

export function topicKind(topic: string): TopicKind | null {
  if (topic === TOPIC.DAY_MARKET) return "market";
  if (topic === TOPIC.FOREX_TRADE || topic === TOPIC.COPY_TRADE || topic === TOPIC.NOTICE)
    return "trade";
  if (topic === TOPIC.FOREX_CLOSED) return "closed";
  if (klineCode(topic) !== null) return "kline";
  return null;
}

export function isPrivateTopic(topic: string): boolean {
  return PRIVATE_TOPICS.has(topic);
}

type ParsedTopics =
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

/** The field an item of a merged-array topic is keyed by (Id for quotes, period for candles). */
function keyField(kind: TopicKind): "Id" | "period" | null {
  return kind === "market" ? "Id" : kind === "kline" ? "period" : null;
}

function itemKey(kind: TopicKind, item: unknown): string | number | undefined {
  const field = keyField(kind);
  if (!field || !item || typeof item !== "object") return undefined;
  const k = (item as Record<string, unknown>)[field];
  return typeof k === "string" || typeof k === "number" ? k : undefined;
}

type Item = Record<string, unknown>;

/**
 * The state of one topic as the latest full value, with merge rules per kind. Used by the bridge
 * (snapshot per topic, pending changes per flush) and by the browser (state handed to listeners).
 */
export class TopicState {
  readonly kind: TopicKind;
  /** market/kline: key -> item (insertion order kept) */
  private items = new Map<string | number, Item>();
  /** trade: the latest object; closed: accumulated ids */
  private value: unknown = undefined;
  private closedIds: unknown[] = [];
  private has = false;

  constructor(readonly topic: string) {
    const k = topicKind(topic);
    if (!k) throw new Error(`unknown topic ${topic}`);
    this.kind = k;
  }

  /** True for the topics whose items merge by key (DAY_MARKET, KLINE.{code}). */
  get itemised(): boolean {
    return keyField(this.kind) !== null;
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
          const prev = this.items.get(key);
          this.items.set(key, prev ? { ...prev, ...(item as Item) } : (item as Item));
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

  /**
   * market/kline: what `items` change against this state, item by item: the key and each field whose
   * value differs (compared with ===, the values being JSON numbers and strings). Items that change
   * nothing are left out, so the answer may be empty. Applying the answer to a copy of this state
   * gives the same items as applying `items`.
   */
  changes(items: unknown[]): Item[] {
    const field = keyField(this.kind);
    if (!field) throw new Error(`${this.topic} has no items to compare`);
    const out: Item[] = [];
    for (const item of items) {
      const key = itemKey(this.kind, item);
      if (key === undefined) continue;
      const prev = this.items.get(key);
      if (!prev) {
        out.push(item as Item);
        continue;
      }
      let diff: Item | null = null;
      for (const [k, v] of Object.entries(item as Item)) {
        if (k === field || prev[k] === v) continue;
        diff ??= { [field]: key };
        diff[k] = v;
      }
      if (diff) out.push(diff);
    }
    return out;
  }

  /** market/kline: the merged items of the keys `data` names, in its order (unknown keys left out). */
  itemsOf(data: unknown[]): Item[] {
    const out: Item[] = [];
    for (const item of data) {
      const key = itemKey(this.kind, item);
      const merged = key === undefined ? undefined : this.items.get(key);
      if (merged) out.push(merged);
    }
    return out;
  }

  /** Empties the state (used for pending changes after each flush). */
  clear(): void {
    this.items.clear();
    this.value = undefined;
    this.closedIds = [];
    this.has = false;
  }
}
