/**
 * The trade screen's live prices, outside React's state: a push writes them here, and only the
 * parts that show a figure that moved render again (the header's price, the day's figures, a
 * picker row, the order form's estimates), not the whole screen with its forms and chart.
 *
 * A part reads with useLiveQuote(store, select), where `select` returns a number, a string or a
 * boolean (compared with Object.is: an object made in `select` would render on every push).
 * Server rendering and the first client render read the empty state, so each part shows the
 * loader's figures until a push arrives.
 */
import { useSyncExternalStore } from "react";
import { usdRateOf, type QuoteView } from "~/upstream/views";

export interface PickerQuote {
  close: number;
  change: number;
}

export interface LiveQuoteState {
  /** The shown instrument's quote fields pushed since the page loaded, merged. */
  quote: Partial<QuoteView>;
  /** The shown instrument's market state as last pushed; null before any push. */
  marketOpen: boolean | null;
  /** Every instrument's pushed close and change, by instrument id (the picker). */
  picker: Readonly<Record<number, PickerQuote>>;
  /** Pushed closes by upper-case code (the USD conversion of the estimates). */
  closes: Readonly<Record<string, number>>;
}

export interface LiveQuotes {
  get(): LiveQuoteState;
  /** Replaces the state (a new object: the parts compare what they select) and tells the parts. */
  set(next: LiveQuoteState): void;
  /** Back to no pushes: the parts show the loader's figures again (a new page's). */
  reset(): void;
  subscribe(listener: () => void): () => void;
}

const EMPTY: LiveQuoteState = { quote: {}, marketOpen: null, picker: {}, closes: {} };

export function createLiveQuotes(): LiveQuotes {
  let state = EMPTY;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      state = next;
      for (const l of listeners) l();
    },
    reset() {
      if (state === EMPTY) return;
      state = EMPTY;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What `select` picks of the live state, rendering again only when that changes. */
export function useLiveQuote<T extends number | string | boolean | null>(
  store: LiveQuotes,
  select: (s: LiveQuoteState) => T,
): T {
  const read = () => select(store.get());
  return useSyncExternalStore(store.subscribe, read, read);
}

/** What the trade screen's parts need of the shown instrument to read its live figures. */
export interface LiveInstrument {
  id: number;
  code: string;
  quoteCurrency: string;
  marketOpen: boolean;
  quote: QuoteView;
}

/** The shown instrument's price: the last pushed, else the loader's. */
export function livePrice(s: LiveQuoteState, inst: LiveInstrument): number {
  return Number(s.quote.close ?? inst.quote.close);
}

/** One field of the shown instrument's quote: the last pushed, else the loader's. */
export function liveField(s: LiveQuoteState, inst: LiveInstrument, key: keyof QuoteView): number {
  return Number(s.quote[key] ?? inst.quote[key]);
}

export function liveMarketOpen(s: LiveQuoteState, inst: LiveInstrument): boolean {
  return s.marketOpen ?? inst.marketOpen;
}

/**
 * USD per unit of the instrument's quote currency from the loader's closes, the pushed ones and
 * the shown price; null when it cannot be valued.
 */
export function liveUsdRate(
  s: LiveQuoteState,
  inst: LiveInstrument,
  serverCloses: Readonly<Record<string, number>>,
): number | null {
  return usdRateOf(inst.quoteCurrency, {
    ...serverCloses,
    ...s.closes,
    [inst.code.toUpperCase()]: livePrice(s, inst),
  });
}
