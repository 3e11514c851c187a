-- Real-name verification: every submission is kept (the history stays auditable). status 1 waiting,
-- 2 approved, 3 rejected (REAL_NAME_REQUEST of contract/api/verify.ts). An account's review_status
-- is read from its latest request: waiting 1, approved 2, rejected or none 0.
CREATE TABLE real_name_requests (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  card_id TEXT NOT NULL,
  front_pic TEXT NOT NULL REFERENCES uploads(name),
  reverse_pic TEXT NOT NULL REFERENCES uploads(name),
  status INTEGER NOT NULL DEFAULT 1 CHECK (status IN (1, 2, 3)),
  remark TEXT,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by TEXT
);
CREATE INDEX real_name_requests_user ON real_name_requests(user_id, id);
CREATE INDEX real_name_requests_status ON real_name_requests(status, id);
-- At most one request of an account is waiting or approved: a second submission is refused.
CREATE UNIQUE INDEX real_name_requests_open ON real_name_requests(user_id) WHERE status IN (1, 2);
