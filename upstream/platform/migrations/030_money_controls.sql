-- Money controls (issue 33): what one operator may move alone, and what a second one must see.
-- The four-eyes request whose approval carried an audited action out; NULL when one operator acted
-- alone. A day's running totals (upstream/modules/operators/money-controls.ts) count those only.
ALTER TABLE audit ADD COLUMN request_id INTEGER REFERENCES operator_requests(id);
CREATE INDEX audit_actor_time ON audit(actor, created_at);
CREATE INDEX audit_user_time ON audit(user_id, created_at);
-- The requesting operator's own words (an adjustment's reason, an approval's remark).
ALTER TABLE operator_requests ADD COLUMN note TEXT;
-- A deposit credited or a withdrawal paid above these (USD) needs a second operator; so does one
-- operator's running total of money moved alone in a UTC day above risk.operator_daily_usd.
INSERT INTO settings (key, value) VALUES ('risk.deposit_four_eyes_usd', '10000')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.withdrawal_four_eyes_usd', '10000')
  ON CONFLICT (key) DO NOTHING;
INSERT INTO settings (key, value) VALUES ('risk.operator_daily_usd', '50000')
  ON CONFLICT (key) DO NOTHING;
