-- Account screens. Verification codes gain purpose 3 (binding an e-mail to an account that has
-- none): the table is rebuilt because SQLite cannot change a CHECK constraint in place. Invite
-- counts read users by invited_by, which gets an index.
CREATE TABLE verify_codes_new (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  recipient TEXT NOT NULL,
  purpose INTEGER NOT NULL CHECK (purpose IN (1, 2, 3)),   -- 1 register, 2 reset password, 3 bind e-mail
  salt TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,                     -- wrong tries; 5 locks the code
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
INSERT INTO verify_codes_new (id, channel, recipient, purpose, salt, code_hash, attempts, created_at, expires_at, used_at)
  SELECT id, channel, recipient, purpose, salt, code_hash, attempts, created_at, expires_at, used_at FROM verify_codes;
DROP TABLE verify_codes;
ALTER TABLE verify_codes_new RENAME TO verify_codes;
CREATE INDEX verify_codes_recipient ON verify_codes(recipient, purpose, id);
CREATE INDEX verify_codes_sent ON verify_codes(recipient, created_at);

CREATE INDEX IF NOT EXISTS users_invited_by ON users(invited_by);
