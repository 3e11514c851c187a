-- Abuse limits (platform/limits.ts): the counters of the limits kept in the store, in the layout of
-- rate-limiter-flexible's RateLimiterSQLite (key = "<limit>:<subject>", points used, expiry in ms).
-- They replace login_attempts, whose failures were counted after the password was checked.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  points INTEGER NOT NULL DEFAULT 0,
  expire INTEGER
);
CREATE INDEX rate_limits_expire ON rate_limits (expire);
DROP TABLE login_attempts;
