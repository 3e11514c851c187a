-- The order engine's leader among the upstream nodes (platform/cluster): the one row says which
-- node holds the leadership (the advisory lock LEADER_LOCK) and where the others send their
-- commands. Written by each new leader once it holds the lock.
CREATE TABLE cluster_leader (
  id BIGINT PRIMARY KEY CHECK (id = 1),
  node TEXT NOT NULL,
  url TEXT NOT NULL,
  since BIGINT NOT NULL
);
