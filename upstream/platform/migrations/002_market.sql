-- Market: categories, instruments, candles. Seeded by upstream/modules/market/instruments.ts on first start.
CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  -- JSON object lang -> name (15 languages); NameShowTrans is picked by the request's lang.
  names TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE instruments (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,
  show_code TEXT NOT NULL,
  logo TEXT NOT NULL,
  category_id INTEGER NOT NULL REFERENCES categories(id),
  -- 'crypto' (24/7), 'fx' (forex, metals, energy, indices: closed Fri 21:00 - Sun 21:00 UTC), 'us_stock'
  session TEXT NOT NULL,
  quote_currency TEXT NOT NULL DEFAULT 'USD',
  price_precision INTEGER NOT NULL,
  -- Lot step (Pip), minimum lots (ForexMinCont), units per lot (ForexContNum), kept as decimal text.
  pip TEXT NOT NULL,
  min_lots TEXT NOT NULL,
  cont_num TEXT NOT NULL,
  -- 1 fixed margin (lots x ForexContNum), otherwise leverage based.
  margin_mode INTEGER NOT NULL DEFAULT 2,
  -- JSON array of leverage options, e.g. [10,20,50,100]; [] means none configured.
  multiples TEXT NOT NULL,
  fee_rate TEXT NOT NULL,
  -- Simulator parameters: starting price and yearly volatility (e.g. 0.08 = 8%).
  base_price REAL NOT NULL,
  volatility REAL NOT NULL,
  api TEXT NOT NULL DEFAULT 'sim',
  sort INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1
);

-- period: '1min','5min','15min','30min','60min','1day'; time = candle start, ms since epoch (UTC).
CREATE TABLE candles (
  instrument_id INTEGER NOT NULL REFERENCES instruments(id),
  period TEXT NOT NULL,
  time INTEGER NOT NULL,
  open REAL NOT NULL,
  high REAL NOT NULL,
  low REAL NOT NULL,
  close REAL NOT NULL,
  volume REAL NOT NULL,
  PRIMARY KEY (instrument_id, period, time)
) WITHOUT ROWID;
