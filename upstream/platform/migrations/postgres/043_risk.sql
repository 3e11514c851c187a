-- Copy trading's risk score, the ranking's daily figures and favourites, and the risk disclosure
-- (modules/follow/risk.ts, decision 0040).
-- One row per provider and UTC day (day: days since 1970-01-01): the figures the leader computed
-- that day from the provider's history (the score's inputs, the returns over 1, 3, 6 and 12
-- months, the maximum drawdown, the category ids of the instruments traded), and notified_at once
-- its followers were told of a rise of the score.
CREATE TABLE provider_daily (
  user_id BIGINT NOT NULL REFERENCES users(id),
  day BIGINT NOT NULL,
  risk_score BIGINT NOT NULL,
  volatility DOUBLE PRECISION NOT NULL,
  leverage DOUBLE PRECISION NOT NULL,
  concentration DOUBLE PRECISION NOT NULL,
  return_1m DOUBLE PRECISION NOT NULL,
  return_3m DOUBLE PRECISION NOT NULL,
  return_6m DOUBLE PRECISION NOT NULL,
  return_12m DOUBLE PRECISION NOT NULL,
  max_drawdown DOUBLE PRECISION NOT NULL,
  categories TEXT NOT NULL,
  computed_at BIGINT NOT NULL,
  notified_at BIGINT,
  PRIMARY KEY (user_id, day)
);
-- A user's favourite providers (the ranking's star).
CREATE TABLE provider_favourites (
  user_id BIGINT NOT NULL REFERENCES users(id),
  provider_id BIGINT NOT NULL REFERENCES users(id),
  created_at BIGINT NOT NULL,
  PRIMARY KEY (user_id, provider_id)
);
-- The share of real retail accounts that lost money over the 12 months before each UTC day's
-- computation: accounts with a realised result in that time, and how many of them lost.
CREATE TABLE risk_disclosures (
  day BIGINT PRIMARY KEY,
  accounts BIGINT NOT NULL,
  losing BIGINT NOT NULL,
  computed_at BIGINT NOT NULL
);
INSERT INTO settings (key, value) VALUES ('copy.max_risk_score', '7')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.disclosure_show', '1')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.disclosure_text', '')
  ON CONFLICT (key) DO NOTHING;
