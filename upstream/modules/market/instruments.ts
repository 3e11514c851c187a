/**
 * The embedded default market: categories and instruments, seeded on first start (idempotent: rows
 * that exist are left alone, so an operator's edits survive restarts), plus typed access and the
 * quote-currency -> USD conversion the order engine uses.
 */
import { floatArith, usdRate as usdRateOf } from "@contract/formulas";
import type { DB } from "../../platform/db.js";
import type { PriceFeed } from "./feed.js";
import type { Session } from "./hours.js";

type Names = Record<
  | "hk"
  | "en"
  | "jp"
  | "kr"
  | "th"
  | "vn"
  | "fr"
  | "de"
  | "ru"
  | "spa"
  | "pt"
  | "ar"
  | "it"
  | "tr"
  | "id",
  string
>;

export const CATEGORY_SEED: { id: number; sort: number; names: Names }[] = [
  {
    id: 1,
    sort: 1,
    names: {
      hk: "主要貨幣對",
      en: "Forex majors",
      jp: "主要通貨ペア",
      kr: "주요 통화쌍",
      th: "คู่เงินหลัก",
      vn: "Cặp tiền chính",
      fr: "Paires majeures",
      de: "Hauptwährungspaare",
      ru: "Основные валютные пары",
      spa: "Pares principales",
      pt: "Pares principais",
      ar: "أزواج العملات الرئيسية",
      it: "Coppie principali",
      tr: "Majör pariteler",
      id: "Pasangan mata uang utama",
    },
  },
  {
    id: 2,
    sort: 2,
    names: {
      hk: "交叉貨幣對",
      en: "Forex crosses",
      jp: "クロス通貨ペア",
      kr: "교차 통화쌍",
      th: "คู่เงินไขว้",
      vn: "Cặp tiền chéo",
      fr: "Paires croisées",
      de: "Kreuzwährungspaare",
      ru: "Кросс-курсы",
      spa: "Pares cruzados",
      pt: "Pares cruzados",
      ar: "أزواج العملات التقاطعية",
      it: "Coppie incrociate",
      tr: "Çapraz pariteler",
      id: "Pasangan mata uang silang",
    },
  },
  {
    id: 3,
    sort: 3,
    names: {
      hk: "貴金屬",
      en: "Metals",
      jp: "貴金属",
      kr: "귀금속",
      th: "โลหะมีค่า",
      vn: "Kim loại quý",
      fr: "Métaux",
      de: "Edelmetalle",
      ru: "Металлы",
      spa: "Metales",
      pt: "Metais",
      ar: "المعادن",
      it: "Metalli",
      tr: "Metaller",
      id: "Logam mulia",
    },
  },
  {
    id: 4,
    sort: 4,
    names: {
      hk: "能源",
      en: "Energy",
      jp: "エネルギー",
      kr: "에너지",
      th: "พลังงาน",
      vn: "Năng lượng",
      fr: "Énergie",
      de: "Energie",
      ru: "Энергоносители",
      spa: "Energía",
      pt: "Energia",
      ar: "الطاقة",
      it: "Energia",
      tr: "Enerji",
      id: "Energi",
    },
  },
  {
    id: 5,
    sort: 5,
    names: {
      hk: "指數",
      en: "Indices",
      jp: "株価指数",
      kr: "지수",
      th: "ดัชนี",
      vn: "Chỉ số",
      fr: "Indices",
      de: "Indizes",
      ru: "Индексы",
      spa: "Índices",
      pt: "Índices",
      ar: "المؤشرات",
      it: "Indici",
      tr: "Endeksler",
      id: "Indeks",
    },
  },
  {
    id: 6,
    sort: 6,
    names: {
      hk: "加密貨幣",
      en: "Crypto",
      jp: "暗号資産",
      kr: "암호화폐",
      th: "คริปโทเคอร์เรนซี",
      vn: "Tiền mã hóa",
      fr: "Cryptomonnaies",
      de: "Kryptowährungen",
      ru: "Криптовалюты",
      spa: "Criptomonedas",
      pt: "Criptomoedas",
      ar: "العملات المشفرة",
      it: "Criptovalute",
      tr: "Kripto paralar",
      id: "Kripto",
    },
  },
  {
    id: 7,
    sort: 7,
    names: {
      hk: "美股",
      en: "US stocks",
      jp: "米国株",
      kr: "미국 주식",
      th: "หุ้นสหรัฐฯ",
      vn: "Cổ phiếu Mỹ",
      fr: "Actions américaines",
      de: "US-Aktien",
      ru: "Акции США",
      spa: "Acciones de EE. UU.",
      pt: "Ações dos EUA",
      ar: "الأسهم الأمريكية",
      it: "Azioni USA",
      tr: "ABD hisseleri",
      id: "Saham AS",
    },
  },
];

export interface InstrumentSeed {
  code: string;
  show: string;
  category: number;
  session: Session;
  quote: string;
  precision: number;
  cont: number;
  multiples: number[];
  fee: string;
  price: number;
  /** Yearly volatility, e.g. 0.08 = 8 %. */
  vol: number;
}

const FX_MULT = [10, 20, 50, 100, 200];
const METAL_MULT = [10, 20, 50, 100];
const ENERGY_MULT = [10, 20, 50];
const INDEX_MULT = [10, 20, 50, 100];
const CRYPTO_MULT = [2, 5, 10, 20];
const STOCK_MULT = [2, 5, 10];

export const INSTRUMENT_SEED: InstrumentSeed[] = [
  // Forex majors
  {
    code: "EURUSD",
    show: "EUR/USD",
    category: 1,
    session: "fx",
    quote: "USD",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 1.0852,
    vol: 0.075,
  },
  {
    code: "GBPUSD",
    show: "GBP/USD",
    category: 1,
    session: "fx",
    quote: "USD",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 1.2715,
    vol: 0.085,
  },
  {
    code: "USDJPY",
    show: "USD/JPY",
    category: 1,
    session: "fx",
    quote: "JPY",
    precision: 3,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 151.42,
    vol: 0.095,
  },
  {
    code: "USDCHF",
    show: "USD/CHF",
    category: 1,
    session: "fx",
    quote: "CHF",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 0.8821,
    vol: 0.08,
  },
  {
    code: "AUDUSD",
    show: "AUD/USD",
    category: 1,
    session: "fx",
    quote: "USD",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 0.6548,
    vol: 0.1,
  },
  {
    code: "USDCAD",
    show: "USD/CAD",
    category: 1,
    session: "fx",
    quote: "CAD",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 1.3625,
    vol: 0.065,
  },
  {
    code: "NZDUSD",
    show: "NZD/USD",
    category: 1,
    session: "fx",
    quote: "USD",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.002",
    price: 0.5987,
    vol: 0.105,
  },
  // Forex crosses
  {
    code: "EURGBP",
    show: "EUR/GBP",
    category: 2,
    session: "fx",
    quote: "GBP",
    precision: 5,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.0025",
    price: 0.8534,
    vol: 0.06,
  },
  {
    code: "EURJPY",
    show: "EUR/JPY",
    category: 2,
    session: "fx",
    quote: "JPY",
    precision: 3,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.0025",
    price: 164.31,
    vol: 0.1,
  },
  {
    code: "GBPJPY",
    show: "GBP/JPY",
    category: 2,
    session: "fx",
    quote: "JPY",
    precision: 3,
    cont: 100000,
    multiples: FX_MULT,
    fee: "0.0025",
    price: 192.54,
    vol: 0.11,
  },
  // Metals
  {
    code: "XAUUSD",
    show: "Gold",
    category: 3,
    session: "fx",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: METAL_MULT,
    fee: "0.002",
    price: 2385.4,
    vol: 0.15,
  },
  {
    code: "XAGUSD",
    show: "Silver",
    category: 3,
    session: "fx",
    quote: "USD",
    precision: 3,
    cont: 5000,
    multiples: METAL_MULT,
    fee: "0.002",
    price: 28.315,
    vol: 0.27,
  },
  {
    code: "XPTUSD",
    show: "Platinum",
    category: 3,
    session: "fx",
    quote: "USD",
    precision: 2,
    cont: 50,
    multiples: METAL_MULT,
    fee: "0.002",
    price: 985.6,
    vol: 0.24,
  },
  // Energy
  {
    code: "USOIL",
    show: "WTI Crude",
    category: 4,
    session: "fx",
    quote: "USD",
    precision: 2,
    cont: 1000,
    multiples: ENERGY_MULT,
    fee: "0.003",
    price: 78.42,
    vol: 0.33,
  },
  {
    code: "UKOIL",
    show: "Brent Crude",
    category: 4,
    session: "fx",
    quote: "USD",
    precision: 2,
    cont: 1000,
    multiples: ENERGY_MULT,
    fee: "0.003",
    price: 82.67,
    vol: 0.3,
  },
  {
    code: "NGAS",
    show: "Natural Gas",
    category: 4,
    session: "fx",
    quote: "USD",
    precision: 3,
    cont: 10000,
    multiples: ENERGY_MULT,
    fee: "0.003",
    price: 2.315,
    vol: 0.6,
  },
  // Indices
  {
    code: "US30",
    show: "Dow Jones 30",
    category: 5,
    session: "fx",
    quote: "USD",
    precision: 1,
    cont: 1,
    multiples: INDEX_MULT,
    fee: "0.002",
    price: 39120.5,
    vol: 0.16,
  },
  {
    code: "SPX500",
    show: "S&P 500",
    category: 5,
    session: "fx",
    quote: "USD",
    precision: 1,
    cont: 1,
    multiples: INDEX_MULT,
    fee: "0.002",
    price: 5234.8,
    vol: 0.17,
  },
  {
    code: "NAS100",
    show: "Nasdaq 100",
    category: 5,
    session: "fx",
    quote: "USD",
    precision: 1,
    cont: 1,
    multiples: INDEX_MULT,
    fee: "0.002",
    price: 18285.3,
    vol: 0.22,
  },
  // Crypto
  {
    code: "BTCUSD",
    show: "BTC/USD",
    category: 6,
    session: "crypto",
    quote: "USD",
    precision: 2,
    cont: 1,
    multiples: CRYPTO_MULT,
    fee: "0.005",
    price: 67250,
    vol: 0.55,
  },
  {
    code: "ETHUSD",
    show: "ETH/USD",
    category: 6,
    session: "crypto",
    quote: "USD",
    precision: 2,
    cont: 1,
    multiples: CRYPTO_MULT,
    fee: "0.005",
    price: 3480.5,
    vol: 0.7,
  },
  {
    code: "SOLUSD",
    show: "SOL/USD",
    category: 6,
    session: "crypto",
    quote: "USD",
    precision: 2,
    cont: 10,
    multiples: CRYPTO_MULT,
    fee: "0.005",
    price: 172.35,
    vol: 0.9,
  },
  {
    code: "XRPUSD",
    show: "XRP/USD",
    category: 6,
    session: "crypto",
    quote: "USD",
    precision: 4,
    cont: 1000,
    multiples: CRYPTO_MULT,
    fee: "0.005",
    price: 0.5234,
    vol: 0.8,
  },
  {
    code: "DOGEUSD",
    show: "DOGE/USD",
    category: 6,
    session: "crypto",
    quote: "USD",
    precision: 5,
    cont: 10000,
    multiples: CRYPTO_MULT,
    fee: "0.005",
    price: 0.15872,
    vol: 1.0,
  },
  // US stocks (AMZN has no leverage configured: it exercises the spec's no_mult_config message)
  {
    code: "AAPL",
    show: "Apple",
    category: 7,
    session: "us_stock",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: STOCK_MULT,
    fee: "0.003",
    price: 228.35,
    vol: 0.26,
  },
  {
    code: "TSLA",
    show: "Tesla",
    category: 7,
    session: "us_stock",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: STOCK_MULT,
    fee: "0.003",
    price: 245.8,
    vol: 0.55,
  },
  {
    code: "NVDA",
    show: "NVIDIA",
    category: 7,
    session: "us_stock",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: STOCK_MULT,
    fee: "0.003",
    price: 124.6,
    vol: 0.5,
  },
  {
    code: "MSFT",
    show: "Microsoft",
    category: 7,
    session: "us_stock",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: STOCK_MULT,
    fee: "0.003",
    price: 425.2,
    vol: 0.24,
  },
  {
    code: "AMZN",
    show: "Amazon",
    category: 7,
    session: "us_stock",
    quote: "USD",
    precision: 2,
    cont: 100,
    multiples: [],
    fee: "0.003",
    price: 186.45,
    vol: 0.32,
  },
];

/** An instruments row as stored (migration 002). */
export interface InstrumentRow {
  id: number;
  code: string;
  show_code: string;
  logo: string;
  category_id: number;
  session: Session;
  quote_currency: string;
  price_precision: number;
  pip: string;
  min_lots: string;
  cont_num: string;
  margin_mode: number;
  multiples: string;
  fee_rate: string;
  base_price: number;
  volatility: number;
  api: string;
  sort: number;
  enabled: number;
}

/** Inserts the default categories and instruments that are missing. Returns how many instruments it added. */
export function seedInstruments(db: DB): number {
  const insCat = db.prepare("INSERT OR IGNORE INTO categories (id, names, sort) VALUES (?, ?, ?)");
  const insInst = db.prepare(
    `INSERT OR IGNORE INTO instruments (code, show_code, logo, category_id, session, quote_currency, price_precision, pip,
       min_lots, cont_num, margin_mode, multiples, fee_rate, base_price, volatility, api, sort, enabled)
     VALUES (?, ?, ?, ?, ?, ?, ?, '0.01', '0.01', ?, 2, ?, ?, ?, ?, 'sim', ?, 1)`,
  );
  let added = 0;
  db.transaction(() => {
    for (const c of CATEGORY_SEED) insCat.run(c.id, JSON.stringify(c.names), c.sort);
    INSTRUMENT_SEED.forEach((s, i) => {
      const r = insInst.run(
        s.code,
        s.show,
        `/static/logos/${s.code}.svg`,
        s.category,
        s.session,
        s.quote,
        s.precision,
        String(s.cont),
        JSON.stringify(s.multiples),
        s.fee,
        s.price,
        s.vol,
        i + 1,
      );
      added += r.changes;
    });
  })();
  return added;
}

/** Enabled instruments in display order (category order, then instrument order). */
export function loadInstruments(db: DB): InstrumentRow[] {
  return db
    .prepare(
      `SELECT i.* FROM instruments i JOIN categories c ON c.id = i.category_id
       WHERE i.enabled = 1 ORDER BY c.sort, c.id, i.sort, i.id`,
    )
    .all() as InstrumentRow[];
}

/** Rounds a price to an instrument's precision (display and storage of quotes and candles). */
export function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * USD value of one unit of `quoteCurrency` at the feed's current prices: a quote-currency amount
 * times this rate is USD. "USD" is 1; otherwise it uses the instrument {CCY}USD (rate = its price)
 * or USD{CCY} (rate = 1 / its price), by @contract/formulas usdRate. Undefined when the feed has
 * neither (the caller must refuse).
 * Example: profit of a USDJPY position in JPY x usdRate(feed, "JPY") = profit in USD.
 */
export function usdRate(feed: PriceFeed, quoteCurrency: string): number | undefined {
  const rate = usdRateOf(floatArith, quoteCurrency, (code) => {
    const q = feed.quote(code);
    return q && q.price > 0 ? q.price : null;
  });
  return rate ?? undefined;
}
