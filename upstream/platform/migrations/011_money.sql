-- Money: deposit channels and wire accounts, withdrawal currencies, users' withdrawal methods,
-- deposits (charges) and withdrawals (draws), and the images uploaded as proofs.
-- Amounts ending in _micro are integer micro-USD; rates and prices are decimal strings (exact).

-- Images uploaded by users (deposit proofs, identity documents), kept under server-made names in
-- DATA_DIR/uploads; only their owner and operators may fetch them.
CREATE TABLE uploads (
  name TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  mime TEXT NOT NULL,
  bytes INTEGER NOT NULL CHECK (bytes > 0),
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX uploads_user ON uploads(user_id, created_at);

-- Coin deposit channels: where a user sends coins (quickCharge info).
CREATE TABLE charge_channels (
  id INTEGER PRIMARY KEY,
  currency_code TEXT NOT NULL,
  protocol_code TEXT NOT NULL,
  address TEXT NOT NULL,
  -- USD value of one coin: a deposit of N USD is N / usd_price coins.
  usd_price TEXT NOT NULL,
  enabled INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0,
  UNIQUE (currency_code, protocol_code)
);

-- Bank accounts users wire deposits to (wire_info).
CREATE TABLE wire_accounts (
  id INTEGER PRIMARY KEY,
  bank_coin TEXT NOT NULL DEFAULT 'USD',
  bank_name TEXT NOT NULL,
  bank_address TEXT NOT NULL,
  bank_swift TEXT NOT NULL,
  payee_name TEXT NOT NULL,
  payee_account TEXT NOT NULL,
  bank_remark TEXT NOT NULL DEFAULT '',
  enabled INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0
);

-- Currencies users withdraw in (draw_symbol_list): type 1 to an address, 2 to a bank account.
-- fee_type 1: draw_rate is a fixed fee in USD; otherwise the fee is draw_rate x amount.
-- usd_price: units of the currency paid per USD (net = (amount - fee) x usd_price).
CREATE TABLE draw_currencies (
  id INTEGER PRIMARY KEY,
  type INTEGER NOT NULL CHECK (type IN (1, 2)),
  code TEXT NOT NULL,
  protocol TEXT NOT NULL DEFAULT '',
  draw_rate TEXT NOT NULL,
  fee_type INTEGER NOT NULL CHECK (fee_type IN (1, 2)),
  usd_price TEXT NOT NULL,
  min_micro INTEGER NOT NULL CHECK (min_micro > 0),
  max_micro INTEGER NOT NULL CHECK (max_micro >= min_micro),
  enabled INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0,
  UNIQUE (type, code, protocol)
);

-- A user's withdrawal destinations (wallet): an address (type 1) or a bank account (type 2).
-- Deleting one marks it deleted: withdrawals keep pointing at what was used.
CREATE TABLE draw_methods (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type INTEGER NOT NULL CHECK (type IN (1, 2)),
  draw_currency_id INTEGER NOT NULL REFERENCES draw_currencies(id),
  dc_address TEXT,
  bank_name TEXT,
  bank_address TEXT,
  bank_swift TEXT,
  payee_name TEXT,
  payee_account TEXT,
  remark TEXT,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER,
  CHECK ((type = 1 AND dc_address IS NOT NULL) OR (type = 2 AND payee_account IS NOT NULL))
);
CREATE INDEX draw_methods_user ON draw_methods(user_id, type) WHERE deleted_at IS NULL;

-- Deposits: status 0 unchecked, 1 finished (credited once), 2 rejected (remark), 3 invalid (remark).
-- No balance changes until an operator approves; the credit is the deposit's one ledger row.
CREATE TABLE charges (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type INTEGER NOT NULL CHECK (type IN (0, 1)),
  channel_id INTEGER REFERENCES charge_channels(id),
  wire_id INTEGER REFERENCES wire_accounts(id),
  currency_code TEXT NOT NULL,
  amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
  credited_micro INTEGER CHECK (credited_micro IS NULL OR credited_micro > 0),
  address TEXT,
  proof TEXT NOT NULL REFERENCES uploads(name),
  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  remark TEXT,
  decided_by TEXT,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  CHECK ((type = 0 AND channel_id IS NOT NULL) OR (type = 1 AND wire_id IS NOT NULL)),
  CHECK ((status = 1) = (credited_micro IS NOT NULL))
);
CREATE INDEX charges_user ON charges(user_id, type, id);
CREATE INDEX charges_status ON charges(status, id);

-- Withdrawals: status 0 reviewing (amount held in lock_balance), 1 paid (left lock_balance),
-- 2 rejected (returned to the balance, remark), 3 cancelled by the user (returned).
CREATE TABLE draws (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  type INTEGER NOT NULL CHECK (type IN (1, 2)),
  draw_currency_id INTEGER NOT NULL REFERENCES draw_currencies(id),
  draw_method_id INTEGER NOT NULL REFERENCES draw_methods(id),
  amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
  fee_micro INTEGER NOT NULL CHECK (fee_micro >= 0),
  -- What the user receives, in the currency's units (decimal string).
  net TEXT NOT NULL,
  memo TEXT,
  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2, 3)),
  remark TEXT,
  decided_by TEXT,
  created_at INTEGER NOT NULL,
  decided_at INTEGER
);
CREATE INDEX draws_user ON draws(user_id, type, id);
CREATE INDEX draws_status ON draws(status, id);
CREATE INDEX draws_method_open ON draws(draw_method_id) WHERE status = 0;

-- The reference set-up: what a fresh install offers (operators change it in the console).
INSERT INTO charge_channels (currency_code, protocol_code, address, usd_price, sort) VALUES
  ('USDT', 'TRC20', 'TQrZ8tKfjqaPZQq4bKXvQ1YVn7Yw6zk6dE', '1', 1),
  ('USDT', 'ERC20', '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063', '1', 2),
  ('BTC', 'BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', '65000', 3),
  ('ETH', 'ERC20', '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', '3200', 4);

INSERT INTO wire_accounts
  (bank_coin, bank_name, bank_address, bank_swift, payee_name, payee_account, bank_remark, sort)
VALUES
  ('USD', 'First Harbour Bank', '100 Harbour Street, Singapore 049513', 'FHBKSGSG',
   'Tradepost Client Funds Ltd', '0012-345678-901', 'Write your UID in the transfer reference.', 1);

INSERT INTO draw_currencies
  (type, code, protocol, draw_rate, fee_type, usd_price, min_micro, max_micro, sort)
VALUES
  (1, 'USDT', 'TRC20', '1', 1, '1', 10000000, 50000000000, 1),
  (1, 'USDT', 'ERC20', '5', 1, '1', 20000000, 50000000000, 2),
  (1, 'BTC', 'BTC', '0.001', 2, '0.0000153846', 50000000, 50000000000, 3),
  (1, 'ETH', 'ERC20', '0.002', 2, '0.0003125', 20000000, 50000000000, 4),
  (2, 'USD', '', '25', 1, '1', 100000000, 100000000000, 5);

INSERT INTO settings (key, value) VALUES
  ('deposit.min_usd', '10'),
  ('deposit.max_usd', '1000000');
