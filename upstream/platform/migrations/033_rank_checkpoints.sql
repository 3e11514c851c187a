-- The ranking's checkpoints (upstream/modules/follow/checkpoints.ts): per strategy trader, the sums
-- of its positions closed up to upto_ms, so that the public ranking and provider pages read only the
-- positions closed since (a bounded span), however long a trader has traded. The leader advances
-- them every hour.
CREATE TABLE rank_checkpoints (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  upto_ms INTEGER NOT NULL,
  net_micro INTEGER NOT NULL,
  closed_count INTEGER NOT NULL,
  -- Of those, the ones with a profit after fees.
  win_count INTEGER NOT NULL,
  -- Positions closed per leverage, as JSON: {"100": 12}.
  leverage_counts TEXT NOT NULL,
  -- Positions closed per instrument id, as JSON: {"3": 40}.
  instrument_counts TEXT NOT NULL
);
