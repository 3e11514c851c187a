-- Watchlists (modules/watchlists): a user's lists of instruments, each in its owner's order
-- (position, smallest first). The list of kind 'favourites' is made by the user's first star, at
-- most one per user (the partial unique index), with no stored name: the app names it in the
-- reader's language. An instrument is at most once in a list (the primary key). The limits
-- (10 lists, 50 instruments a list) are the contract's (contract/api/watchlists-rules.ts).
CREATE TABLE watchlists (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL CHECK (kind IN ('favourites', 'custom')),
  name TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX watchlists_user ON watchlists(user_id, position);
CREATE UNIQUE INDEX watchlists_one_favourites ON watchlists(user_id) WHERE kind = 'favourites';
CREATE TABLE watchlist_items (
  watchlist_id INTEGER NOT NULL REFERENCES watchlists(id),
  instrument_id INTEGER NOT NULL REFERENCES instruments(id),
  position INTEGER NOT NULL,
  added_at INTEGER NOT NULL,
  PRIMARY KEY (watchlist_id, instrument_id)
);
CREATE INDEX watchlist_items_order ON watchlist_items(watchlist_id, position);
