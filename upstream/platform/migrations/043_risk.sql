-- Copy trading's risk score, the ranking's daily figures and favourites, and the risk disclosure
-- (modules/follow/risk.ts, decision 0040).
-- One row per provider and UTC day (day: days since 1970-01-01): the figures the leader computed
-- that day from the provider's history (the score's inputs, the returns over 1, 3, 6 and 12
-- months, the maximum drawdown, the category ids of the instruments traded), and notified_at once
-- its followers were told of a rise of the score.
CREATE TABLE provider_daily (
  user_id INTEGER NOT NULL REFERENCES users(id),
  day INTEGER NOT NULL,
  risk_score INTEGER NOT NULL,
  volatility REAL NOT NULL,
  leverage REAL NOT NULL,
  concentration REAL NOT NULL,
  return_1m REAL NOT NULL,
  return_3m REAL NOT NULL,
  return_6m REAL NOT NULL,
  return_12m REAL NOT NULL,
  max_drawdown REAL NOT NULL,
  categories TEXT NOT NULL,
  computed_at INTEGER NOT NULL,
  notified_at INTEGER,
  PRIMARY KEY (user_id, day)
);
-- A user's favourite providers (the ranking's star).
CREATE TABLE provider_favourites (
  user_id INTEGER NOT NULL REFERENCES users(id),
  provider_id INTEGER NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, provider_id)
);
-- The share of real retail accounts that lost money over the 12 months before each UTC day's
-- computation: accounts with a realised result in that time, and how many of them lost.
CREATE TABLE risk_disclosures (
  day INTEGER PRIMARY KEY,
  accounts INTEGER NOT NULL,
  losing INTEGER NOT NULL,
  computed_at INTEGER NOT NULL
);
INSERT INTO settings (key, value) VALUES ('copy.max_risk_score', '7')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.disclosure_show', '1')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.disclosure_text', '')
  ON CONFLICT (key) DO NOTHING;
