-- The chart choice of each user (modules/chart): chart type, period and indicators with their
-- parameters, as the flat fields of contract/api/chart-rules.ts in a query string ("type=line&
-- period=4hour&rsi=1&rsi_period=14..."), read forgivingly (a field a later release adds takes its
-- default). No row: the defaults.
CREATE TABLE chart_settings (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  fields TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
