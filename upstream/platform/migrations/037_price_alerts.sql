-- Price alerts (modules/alerts): an instrument's price at or above / at or below a price, or its
-- day's change (from the day's open) reaching a percentage either way; once (active turns 0 when
-- it fires) or every time with a cool-down; good until cancelled or until expires_at.
CREATE TABLE price_alerts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  instrument_id INTEGER NOT NULL REFERENCES instruments(id),
  condition TEXT NOT NULL CHECK (condition IN ('above', 'below', 'change')),
  -- The price of 'above' and 'below', the percentage of 'change' (the other is NULL).
  target REAL NOT NULL CHECK (target > 0),
  repeat_every INTEGER NOT NULL DEFAULT 0,
  cooldown_s INTEGER NOT NULL DEFAULT 3600,
  expires_at INTEGER,
  active INTEGER NOT NULL DEFAULT 1,
  fired_at INTEGER,
  fired_count INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE INDEX price_alerts_user ON price_alerts(user_id, id);
CREATE INDEX price_alerts_active ON price_alerts(active, id);
INSERT INTO settings (key, value) VALUES ('alerts.max_active', '50')
  ON CONFLICT (key) DO NOTHING;
