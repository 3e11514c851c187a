-- The account's safety (modules/identity/two-factor.ts, sessions.ts).
-- Two-factor sign-in: the TOTP secret sealed (platform/secret-box.ts); enabled_at NULL while a
-- set-up waits for its first code. last_step is the time step of the last code accepted: a code of
-- that step or an earlier one is refused, so a code is accepted once.
CREATE TABLE user_two_factor (
  user_id BIGINT PRIMARY KEY REFERENCES users(id),
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  enabled_at BIGINT,
  last_step BIGINT
);
-- Backup codes, each kept as its SHA-256 (with the user id) and used once.
CREATE TABLE user_backup_codes (
  user_id BIGINT NOT NULL REFERENCES users(id),
  code_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  used_at BIGINT,
  PRIMARY KEY (user_id, code_hash)
);
-- Sign-ins whose password was right and that wait for their second factor (by the challenge's
-- SHA-256), with where they came from.
CREATE TABLE sign_in_challenges (
  challenge_hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id),
  expires_at BIGINT NOT NULL,
  ip TEXT,
  user_agent TEXT,
  device TEXT
);
CREATE INDEX sign_in_challenges_expiry ON sign_in_challenges(expires_at);
-- Where each session signed in from (the session list).
ALTER TABLE tokens ADD COLUMN ip TEXT;
ALTER TABLE tokens ADD COLUMN user_agent TEXT;
-- The devices each account signed in from (the SHA-256 of the device's id, or of its User-Agent).
CREATE TABLE user_devices (
  user_id BIGINT NOT NULL REFERENCES users(id),
  device_hash TEXT NOT NULL,
  first_seen_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, device_hash)
);
