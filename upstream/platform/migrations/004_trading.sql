-- Trading: orders (pending orders, open positions and their history). Written by the order engine (upstream/modules/trading/engine.ts).
-- status: 0 pending, 1 open (holding), 3 closed, 4 cancelled (a pending order that never filled).
-- Money columns are integer micro-USD; prices are the feed's prices (REAL); lots are decimal text.
CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  instrument_id INTEGER NOT NULL REFERENCES instruments(id),
  order_type INTEGER NOT NULL CHECK (order_type IN (1, 2)),        -- 1 buy, 2 sell
  status INTEGER NOT NULL CHECK (status IN (0, 1, 3, 4)),
  pending_kind TEXT CHECK (pending_kind IN ('buy_limit','buy_stop','sell_limit','sell_stop')),
  lots TEXT NOT NULL,
  units TEXT NOT NULL,                                            -- lots x ForexContNum
  leverage INTEGER NOT NULL,
  origin_price REAL NOT NULL,                                     -- market: quote at submit; pending: target price
  open_price REAL,                                                -- fill price (NULL while pending)
  close_price REAL,
  take_profit REAL,                                               -- NULL: not set
  stop_loss REAL,
  margin_micro INTEGER NOT NULL DEFAULT 0,
  fee_micro INTEGER NOT NULL DEFAULT 0,
  profit_micro INTEGER,                                           -- realised profit once closed
  close_reason TEXT,
  created_at INTEGER NOT NULL,
  opened_at INTEGER,
  closed_at INTEGER
);
CREATE INDEX orders_user_status ON orders(user_id, status, id);
CREATE INDEX orders_live ON orders(status) WHERE status IN (0, 1);
