-- Strategy traders (upstream/modules/follow): real accounts listed in the ranking, which the
-- reference upstream trades itself on the simulated market. An account is a strategy trader when
-- it has a row here; ordinary users never appear in the ranking. The starting capital is the
-- adjustment that funded the account (a ledger row), kept here for the total rate.
CREATE TABLE strategy_traders (
  user_id INTEGER PRIMARY KEY REFERENCES users(id),
  name TEXT NOT NULL UNIQUE,
  style TEXT NOT NULL,
  start_capital_micro INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
-- The ranking reads each trader's closed positions by close time.
CREATE INDEX orders_closed_by_user ON orders(user_id, closed_at) WHERE status = 3;
