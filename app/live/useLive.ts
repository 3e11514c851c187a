/**
 * useLive(topics, onMessage): live data in the browser.
 *
 * - One EventSource per tab (GET /live?topics=<union of every mounted hook's topics>), shared by all
 *   components; it is reopened when the union changes.
 * - onMessage(topic, data, state) is called for each event of a topic the hook asked for: `data` is
 *   what arrived (the snapshot first, then changes: for DAY_MARKET an array of the instruments that
 *   changed, whole (the stream sends only their changed fields, merged here into the state), for
 *   KLINE.{code} the candles that changed, one per period, whole too; FOREX_TRADE the whole object;
 *   FOREX_CLOSED {ids}); `state` is the merged latest value of the topic (DAY_MARKET: every
 *   instrument; KLINE: one forming candle per period; FOREX_CLOSED: just these ids). A hook mounted
 *   later gets the current state at once.
 * - When the stream errors repeatedly or delivers nothing within 10 s (a proxy that buffers or blocks
 *   it), the tab polls GET /live.json?topics=... every 2 s instead and tries the stream again after a
 *   minute.
 * - No-op during server rendering (effects do not run there) and without JavaScript.
 */
import { startTransition, useEffect, useRef } from "react";
import { TopicState, topicKind } from "./topics";

type LiveListener = (topic: string, data: unknown, state: unknown) => void;
type LiveMode = "idle" | "stream" | "polling";

interface LiveManagerOptions {
  /** Base URL of /live and /live.json (default: the page's own origin). */
  base?: string;
  /** Fall back to polling when the stream delivers nothing this long after opening. */
  firstDataMs?: number;
  /** ... or after this many errors without data in between. */
  maxErrors?: number;
  pollMs?: number;
  /** While polling, try the stream again after this long. */
  retryStreamMs?: number;
}

interface Sub {
  topics: Set<string>;
  cb: LiveListener;
}

export class LiveManager {
  private readonly firstDataMs: number;
  private readonly maxErrors: number;
  private readonly pollMs: number;
  private readonly retryStreamMs: number;
  private readonly base: string | undefined;
  private subs = new Set<Sub>();
  private states = new Map<string, TopicState>();
  private key = "";
  private es: EventSource | null = null;
  private mode: LiveMode = "idle";
  private errors = 0;
  private gotData = false;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private reconcileTimer: ReturnType<typeof setTimeout> | null = null;
  private seenClosed = new Set<unknown>();
  private modeListeners = new Set<(m: LiveMode) => void>();

  constructor(opts: LiveManagerOptions = {}) {
    this.firstDataMs = opts.firstDataMs ?? 10_000;
    this.maxErrors = opts.maxErrors ?? 3;
    this.pollMs = opts.pollMs ?? 2_000;
    this.retryStreamMs = opts.retryStreamMs ?? 60_000;
    this.base = opts.base;
  }

  get currentMode(): LiveMode {
    return this.mode;
  }

  private url(pathAndQuery: string): string {
    return this.base ? new URL(pathAndQuery, this.base).toString() : pathAndQuery;
  }

  /** Stops everything (tests; a tab's manager lives as long as the tab). */
  dispose(): void {
    this.subs.clear();
    this.key = "";
    if (this.reconcileTimer) clearTimeout(this.reconcileTimer);
    this.reconcileTimer = null;
    this.stopAll();
    this.setMode("idle");
  }

  add(sub: Sub): () => void {
    this.subs.add(sub);
    // Replay what is known, so a late component starts from the current state.
    for (const t of sub.topics) {
      const st = this.states.get(t);
      if (st?.hasData && st.kind !== "closed") {
        const v = st.get();
        sub.cb(t, v, v);
      }
    }
    this.scheduleReconcile();
    return () => {
      this.subs.delete(sub);
      this.scheduleReconcile();
    };
  }

  onMode(fn: (m: LiveMode) => void): () => void {
    this.modeListeners.add(fn);
    fn(this.mode);
    return () => this.modeListeners.delete(fn);
  }

  private setMode(m: LiveMode): void {
    if (this.mode === m) return;
    this.mode = m;
    for (const fn of this.modeListeners) fn(m);
  }

  private scheduleReconcile(): void {
    if (this.reconcileTimer) return;
    this.reconcileTimer = setTimeout(() => {
      this.reconcileTimer = null;
      this.reconcile();
    }, 0);
  }

  private union(): string[] {
    const all = new Set<string>();
    for (const s of this.subs) for (const t of s.topics) all.add(t);
    return [...all].sort();
  }

  private reconcile(): void {
    const topics = this.union();
    const key = topics.join(",");
    if (key === this.key) return;
    this.key = key;
    for (const t of [...this.states.keys()]) if (!topics.includes(t)) this.states.delete(t);
    if (!key) {
      this.stopAll();
      this.setMode("idle");
      return;
    }
    if (this.mode === "polling") this.startPolling();
    else this.openStream();
  }

  private stopAll(): void {
    this.closeStream();
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.pollTimer = this.retryTimer = null;
  }

  private closeStream(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    if (this.es) {
      this.es.close();
      this.es = null;
    }
  }

  private openStream(): void {
    this.stopAll();
    if (typeof EventSource === "undefined") {
      this.startPolling();
      return;
    }
    this.setMode("stream");
    this.errors = 0;
    this.gotData = false;
    const es = new EventSource(this.url(`/live?topics=${encodeURIComponent(this.key)}`));
    this.es = es;
    const delivered = () => {
      this.gotData = true;
      this.errors = 0;
    };
    es.addEventListener("ready", delivered);
    for (const t of this.key.split(",")) {
      es.addEventListener(t, (ev) => {
        delivered();
        let data: unknown;
        try {
          data = JSON.parse((ev as MessageEvent<string>).data);
        } catch {
          return;
        }
        this.deliver(t, data);
      });
    }
    es.onerror = () => {
      if (this.es !== es) return;
      this.errors++;
      // CLOSED: the server refused the stream (not 200 text/event-stream); otherwise the browser
      // retries by itself, until too many errors come without any data in between.
      if (es.readyState === EventSource.CLOSED || this.errors >= this.maxErrors) this.fallback();
    };
    this.watchdog = setTimeout(() => {
      if (this.es === es && !this.gotData) this.fallback();
    }, this.firstDataMs);
  }

  private fallback(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.startPolling();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.key) this.openStream();
    }, this.retryStreamMs);
  }

  private startPolling(): void {
    this.closeStream();
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.setMode("polling");
    const poll = async () => {
      if (typeof document !== "undefined" && document.hidden) return;
      const key = this.key;
      if (!key) return;
      try {
        const res = await fetch(this.url(`/live.json?topics=${encodeURIComponent(key)}`), {
          headers: { Accept: "application/json" },
          cache: "no-store",
        });
        if (!res.ok || key !== this.key || this.mode !== "polling") return;
        const body = (await res.json()) as Record<string, unknown>;
        for (const [t, data] of Object.entries(body)) {
          if (data === null || data === undefined) continue;
          if (topicKind(t) === "closed") {
            const ids = ((data as { ids?: unknown[] }).ids ?? []).filter(
              (id) => !this.seenClosed.has(id),
            );
            for (const id of ids) this.seenClosed.add(id);
            if (ids.length) this.deliver(t, { ids });
          } else this.deliver(t, data);
        }
      } catch {
        /* offline: the next poll tries again */
      }
    };
    void poll();
    this.pollTimer = setInterval(() => void poll(), this.pollMs);
  }

  private deliver(topic: string, data: unknown): void {
    let st = this.states.get(topic);
    if (!st) {
      if (!topicKind(topic)) return;
      st = new TopicState(topic);
      this.states.set(topic, st);
    }
    let state: unknown = data;
    if (st.kind === "closed") {
      const ids = (data as { ids?: unknown[] })?.ids;
      if (Array.isArray(ids)) for (const id of ids) this.seenClosed.add(id);
    } else {
      if (!st.apply(data)) return;
      state = st.get();
      // A stream's change carries only the fields that moved; listeners get whole items.
      if (st.itemised) data = st.itemsOf(data as unknown[]);
    }
    for (const s of this.subs) {
      if (!s.topics.has(topic)) continue;
      try {
        s.cb(topic, data, state);
      } catch (e) {
        console.error(e);
      }
    }
  }
}

let manager: LiveManager | null = null;
function getManager(): LiveManager {
  if (!manager) manager = new LiveManager();
  return manager;
}

/**
 * Subscribes the component to live topics (e.g. ["DAY_MARKET"], [`KLINE.${code}`, "FOREX_TRADE"]).
 * `onMessage` may change between renders; the latest one is called.
 */
export function useLive(topics: readonly string[], onMessage: LiveListener): void {
  const cb = useRef(onMessage);
  useEffect(() => {
    cb.current = onMessage;
  });
  const key = [...new Set(topics)]
    .filter((t) => topicKind(t) !== null)
    .sort()
    .join(",");
  useEffect(() => {
    if (!key || typeof window === "undefined") return;
    // Live figures are never urgent: what a push changes renders as a transition, which React
    // renders in slices and interrupts for a tap or a key, so a burst of ticks on a slow phone
    // never holds the main thread for the length of a whole screen's render.
    return getManager().add({
      topics: new Set(key.split(",")),
      cb: (t, d, s) => startTransition(() => cb.current(t, d, s)),
    });
  }, [key]);
}
