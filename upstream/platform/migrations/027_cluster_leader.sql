-- The order engine's leader among the upstream nodes (platform/cluster): the one row says which
-- node holds the leadership and where the others send their commands. SQLite runs one node, which
-- writes it too, so that /healthz and the operator read the same thing on both stores.
CREATE TABLE cluster_leader (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  node TEXT NOT NULL,
  url TEXT NOT NULL,
  since INTEGER NOT NULL
);
