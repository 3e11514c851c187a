-- Core: settings, users with their cash balance, session tokens, the ledger.
-- Money columns ending in _micro hold integer micro-USD (1 USD = 1000000).
CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  uid TEXT NOT NULL UNIQUE,
  email TEXT UNIQUE,
  mobile TEXT,
  area_id INTEGER,
  password_hash TEXT,
  invite_code TEXT NOT NULL UNIQUE,
  invited_by INTEGER REFERENCES users(id),
  is_demo INTEGER NOT NULL DEFAULT 0,
  demo_id TEXT UNIQUE,
  balance_micro INTEGER NOT NULL DEFAULT 0,
  lock_balance_micro INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX users_mobile ON users(area_id, mobile) WHERE mobile IS NOT NULL;

CREATE TABLE tokens (
  token TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX tokens_user ON tokens(user_id);

-- Append-only: rows are never updated or deleted.
CREATE TABLE ledger (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  amount_micro INTEGER NOT NULL,
  balance_after_micro INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('deposit','withdrawal_request','withdrawal_returned','fee','realised_profit','demo_reset','protection','adjustment','demo_initial')),
  ref TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX ledger_user ON ledger(user_id, id);
CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger rows are immutable'); END;
CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger BEGIN SELECT RAISE(ABORT, 'ledger rows are immutable'); END;

CREATE TABLE idempotency (
  user_id INTEGER NOT NULL,
  key TEXT NOT NULL,
  route TEXT NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, key)
);

INSERT INTO settings (key, value) VALUES
  ('register.captcha', '0'),
  ('service_link', 'https://example.invalid/support'),
  ('service_link_type', '1'),
  ('verify_reg_type', '1'),
  ('trade_fee_type', '2'),
  ('is_show_mobile', '1'),
  ('market.always_open', '0'),
  ('market.stale_after_s', '30'),
  ('trade.max_lots', '100'),
  ('risk.margin_call_pct', '100'),
  ('risk.stop_out_pct', '50'),
  ('demo.initial_balance', '10000');
