/**
 * The market's side of the websocket and of the candle store, started by the composition root
 * before the order engine so that a tick's candles and quotes are recorded and published before the
 * engine acts on it: the day market topic (every quote that changed in a tick) and one kline topic
 * per instrument (its forming candles), each also answered on subscribe with the current state.
 */
import { TOPIC, klineCode, klineTopic } from "@contract/constants";
import type { DB } from "../../platform/db.js";
import type { Hub } from "../../platform/ws/hub.js";
import { CandleBook, round2, type FormingCandle } from "./candles.js";
import type { PriceFeed, Quote } from "./feed.js";
import { loadInstruments } from "./instruments.js";
import type { MarketFeed } from "./market-core.js";

/**
 * The candles of a feed: the simulator's and the manual feed's own book, or, for a feed that keeps
 * none (a real feed plugged in), a book fed from its ticks so candles are still aggregated and
 * stored. Volume is then the growth of the quote's day volume.
 */
export function candleBookOf(db: DB, feed: PriceFeed): CandleBook {
  if ("book" in feed) return (feed as MarketFeed).book;
  const book = new CandleBook(db);
  for (const i of loadInstruments(db)) book.load(i.id);
  const lastVolume = new Map<number, number>();
  feed.onTick((changed) => {
    for (const q of changed) {
      const prev = lastVolume.get(q.id);
      lastVolume.set(q.id, q.volume);
      book.apply(q.id, q.price, prev === undefined ? 0 : Math.max(0, q.volume - prev), q.time);
    }
    book.flush();
  });
  return book;
}

/** A quote as the day market topic carries it. */
function dayItem(feed: PriceFeed, q: Quote) {
  return {
    Id: q.id,
    Code: q.code,
    Close: q.price,
    Open: q.open,
    High: q.high,
    Low: q.low,
    Volume: round2(q.volume),
    Change: q.change,
    Time: q.time,
    MarketStatus: feed.isOpen(q.id) ? 1 : 0,
  };
}

/** An instrument's forming candles as its kline topic carries them. */
function klineItems(book: CandleBook, id: number) {
  return book.current(id).map((c: FormingCandle) => ({
    period: c.period,
    Time: c.time,
    Open: c.open,
    High: c.high,
    Low: c.low,
    Close: c.close,
    Volume: round2(c.volume),
  }));
}

/**
 * Answers the market topics on subscribe and, with `publish` (the node that makes the market),
 * publishes them on every tick; a standby's clients get those through the broker.
 */
export function startMarketPushes(deps: {
  db: DB;
  hub: Hub;
  feed: PriceFeed;
  book: CandleBook;
  publish: boolean;
}): void {
  const { hub, feed, book } = deps;
  const codeToId = new Map<string, number>();
  for (const i of loadInstruments(deps.db)) codeToId.set(i.code, i.id);

  hub.onSubscribe(
    (t) => t === TOPIC.DAY_MARKET,
    () => feed.all().map((q) => dayItem(feed, q)),
  );
  hub.onSubscribe(
    (t) => klineCode(t) !== null,
    (t) => {
      const id = codeToId.get(klineCode(t)!);
      return id === undefined ? undefined : klineItems(book, id);
    },
  );
  if (!deps.publish) return;
  feed.onTick((changed) => {
    if (changed.length === 0) return;
    hub.publish(
      TOPIC.DAY_MARKET,
      changed.map((q) => dayItem(feed, q)),
    );
    for (const q of changed) hub.publish(klineTopic(q.code), klineItems(book, q.id));
  });
}
