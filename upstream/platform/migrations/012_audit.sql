-- The operators' audit log: one append-only row per operator action (who, what, on what, the
-- account's balance before and after, the reason, when). Rows are never updated or deleted.
CREATE TABLE audit (
  id INTEGER PRIMARY KEY,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  user_id INTEGER REFERENCES users(id),
  amount_micro INTEGER,
  balance_before_micro INTEGER,
  balance_after_micro INTEGER,
  remark TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX audit_user ON audit(user_id, id);
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'audit rows are immutable'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'audit rows are immutable'); END;
