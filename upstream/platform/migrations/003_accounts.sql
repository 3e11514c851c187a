-- Accounts: area codes, verification codes, the message outbox, captchas and login throttling.

-- Dialling areas offered by GET /api/default/area_list (users.area_id refers to them).
CREATE TABLE areas (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE,        -- ISO 3166-1 alpha-2, e.g. 'US'
  global_code TEXT NOT NULL,        -- international dialling prefix, e.g. '+1'
  sort INTEGER NOT NULL DEFAULT 0,
  enabled INTEGER NOT NULL DEFAULT 1
);

-- One row per code sent. The code itself is never stored here: code_hash = HMAC-SHA256(salt, code).
-- recipient is the normalised address: a lower-cased e-mail, or 'AREA_ID:DIGITS' for a mobile number.
CREATE TABLE verify_codes (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  recipient TEXT NOT NULL,
  purpose INTEGER NOT NULL CHECK (purpose IN (1, 2)),   -- 1 register, 2 reset password
  salt TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,                  -- wrong tries; 5 locks the code
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX verify_codes_recipient ON verify_codes(recipient, purpose, id);
CREATE INDEX verify_codes_sent ON verify_codes(recipient, created_at);

-- Every message the upstream sends. code is kept only while DEV_OUTBOX is on (GET /dev/outbox
-- serves it); otherwise the body is stored with the code masked.
CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  channel TEXT NOT NULL CHECK (channel IN ('email','sms')),
  recipient TEXT NOT NULL,          -- e-mail address, or the mobile number's digits
  area_id INTEGER,
  purpose INTEGER NOT NULL,
  code TEXT,
  subject TEXT,
  body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('stored','sent','failed')),
  error TEXT,
  created_at INTEGER NOT NULL,
  sent_at INTEGER
);
CREATE INDEX outbox_recipient ON outbox(recipient, id);

CREATE TABLE captchas (
  id TEXT PRIMARY KEY,
  answer TEXT NOT NULL,             -- lower case
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

-- Failed sign-ins per account and client address (key = 'account|ip').
CREATE TABLE login_attempts (
  key TEXT PRIMARY KEY,
  fails INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  locked_until INTEGER
);

INSERT INTO areas (id, code, global_code, sort) VALUES
  (1, 'US', '+1', 1),
  (2, 'GB', '+44', 2),
  (3, 'HK', '+852', 3),
  (4, 'TW', '+886', 4),
  (5, 'MO', '+853', 5),
  (6, 'JP', '+81', 6),
  (7, 'KR', '+82', 7),
  (8, 'TH', '+66', 8),
  (9, 'VN', '+84', 9),
  (10, 'FR', '+33', 10),
  (11, 'DE', '+49', 11),
  (12, 'RU', '+7', 12),
  (13, 'ES', '+34', 13),
  (14, 'PT', '+351', 14),
  (15, 'BR', '+55', 15),
  (16, 'SA', '+966', 16),
  (17, 'AE', '+971', 17),
  (18, 'IT', '+39', 18),
  (19, 'TR', '+90', 19),
  (20, 'ID', '+62', 20),
  (21, 'MY', '+60', 21),
  (22, 'SG', '+65', 22),
  (23, 'PH', '+63', 23),
  (24, 'IN', '+91', 24),
  (25, 'AU', '+61', 25),
  (26, 'NZ', '+64', 26),
  (27, 'CA', '+1', 27),
  (28, 'MX', '+52', 28),
  (29, 'AR', '+54', 29),
  (30, 'NL', '+31', 30),
  (31, 'CH', '+41', 31),
  (32, 'EG', '+20', 32);
