-- Copy trading (upstream/modules/copy): a copy is its own account (a users row owned by the
-- follower, with no way to sign in), funded from the follower's balance by a pair of ledger rows
-- (copy_in) and paid back by another pair (copy_out), so its balance, equity and ledger are exact
-- and the ledger check covers it. Providers are the strategy traders and the real users who chose
-- to be one (a strategy_traders row of style 'user').

-- The ledger's kinds gain copy_in and copy_out: SQLite cannot change a CHECK, so the table is
-- rebuilt with its rows, index and immutability triggers as they were.
CREATE TABLE ledger_next (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  amount_micro INTEGER NOT NULL,
  balance_after_micro INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('deposit','withdrawal_request','withdrawal_returned','fee','realised_profit','demo_reset','protection','adjustment','demo_initial','copy_in','copy_out')),
  ref TEXT,
  created_at INTEGER NOT NULL,
  memo TEXT
);
INSERT INTO ledger_next (id, user_id, amount_micro, balance_after_micro, kind, ref, created_at, memo)
  SELECT id, user_id, amount_micro, balance_after_micro, kind, ref, created_at, memo FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_next RENAME TO ledger;
CREATE INDEX ledger_user ON ledger(user_id, id);
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger rows are immutable'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger rows are immutable'); END;

-- A copy's account names its owner (the follower); ordinary accounts have none.
ALTER TABLE users ADD COLUMN copy_owner_id INTEGER REFERENCES users(id);

-- Providers: what copiers read about them, whether operators hid them, and when a user stopped
-- being one (no new copies from then on).
ALTER TABLE strategy_traders ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE strategy_traders ADD COLUMN min_investment_micro INTEGER NOT NULL DEFAULT 0;
ALTER TABLE strategy_traders ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
ALTER TABLE strategy_traders ADD COLUMN stopped_at INTEGER;

CREATE TABLE copies (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  provider_id INTEGER NOT NULL REFERENCES users(id),
  account_id INTEGER NOT NULL UNIQUE REFERENCES users(id),
  mode TEXT NOT NULL CHECK (mode IN ('proportional','fixed')),
  -- proportional: the multiplier (0.01..100); fixed: the lots of every copied trade. Decimal text.
  multiple TEXT NOT NULL,
  stop_loss_pct INTEGER NOT NULL CHECK (stop_loss_pct BETWEEN 5 AND 95),
  copy_open INTEGER NOT NULL,
  -- Money put in minus money taken out, micro-USD; the copy stop-loss floor is a share of it.
  invested_micro INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active','paused','stopped')),
  stop_reason TEXT CHECK (stop_reason IN ('user','stop_loss','operator')),
  stop_remark TEXT,
  created_at INTEGER NOT NULL,
  stopped_at INTEGER
);
CREATE INDEX copies_user ON copies(user_id, id);
CREATE INDEX copies_provider ON copies(provider_id, status);

-- Each provider trade as each copy saw it: the copied position, or why it was skipped; detached
-- once the copier closed it (no longer mirrored).
CREATE TABLE copy_trades (
  id INTEGER PRIMARY KEY,
  copy_id INTEGER NOT NULL REFERENCES copies(id),
  provider_order_id INTEGER NOT NULL REFERENCES orders(id),
  order_id INTEGER REFERENCES orders(id),
  lots TEXT,
  skip_reason TEXT,
  detached INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  UNIQUE (copy_id, provider_order_id)
);
CREATE INDEX copy_trades_provider_order ON copy_trades(provider_order_id);
CREATE INDEX copy_trades_order ON copy_trades(order_id) WHERE order_id IS NOT NULL;
