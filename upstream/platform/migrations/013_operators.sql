-- Operator accounts (npm run operator -- add NAME): a password (argon2id) and a TOTP secret; signing
-- in needs both and issues a token kept only as its SHA-256, valid 12 hours.
CREATE TABLE operators (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  totp_secret TEXT NOT NULL,
  -- The last TOTP code accepted and when: the same code is never accepted twice.
  last_code TEXT,
  last_code_at INTEGER,
  created_at INTEGER NOT NULL,
  disabled_at INTEGER
);

CREATE TABLE operator_tokens (
  token_hash TEXT PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX operator_tokens_operator ON operator_tokens(operator_id);
