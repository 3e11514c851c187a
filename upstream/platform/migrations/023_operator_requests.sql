-- Four-eyes requests: an operator's sensitive action (a change to where users send money, a security
-- setting, a large adjustment, a deposit approved for another amount) waits here until a second
-- operator with the right permission approves it (it then takes effect) or rejects it.
CREATE TABLE operator_requests (
  id INTEGER PRIMARY KEY,
  -- 'catalog', 'setting', 'adjustment' or 'charge.approve' (upstream/modules/operators/requests.ts).
  kind TEXT NOT NULL,
  -- What the approver's role must hold (contract/operators.ts).
  permission TEXT NOT NULL CHECK (permission IN ('read', 'support', 'money', 'admin')),
  -- What it acts on: 'charge_channel:3', 'setting:limit.login_ip', 'user:12', 'charge:7'.
  target TEXT NOT NULL,
  -- The action's parameters (JSON), carried out as given when approved.
  payload TEXT NOT NULL,
  -- What changes, for the approver: "address: A -> B", "+2,500.00 USD".
  summary TEXT NOT NULL,
  -- 0 pending, 1 approved (carried out), 2 rejected.
  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  requested_by TEXT NOT NULL,
  requested_at INTEGER NOT NULL,
  decided_by TEXT,
  decided_at INTEGER,
  remark TEXT,
  CHECK (decided_by IS NULL OR decided_by <> requested_by)
);
CREATE INDEX operator_requests_status ON operator_requests(status, id);

-- Adjustments larger than this (USD, either sign) need a second operator.
INSERT INTO settings (key, value) VALUES ('risk.adjustment_four_eyes_usd', '1000')
  ON CONFLICT (key) DO NOTHING;
