-- Copy trading's bounds: the least a copy may start with (besides each provider's own minimum),
-- and how many copies one user may hold running or paused; every provider fill writes one row per
-- active copy, so unbounded micro-copies would make every fill expensive.
INSERT INTO settings (key, value) VALUES ('copy.min_usd', '50')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('copy.max_per_user', '20')
  ON CONFLICT (key) DO NOTHING;
