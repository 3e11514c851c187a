-- Operator roles (contract/operators.ts): what each operator may do in the console. Operators made
-- before roles existed could do everything, and stay admins; new ones are given a role when made.
ALTER TABLE operators ADD COLUMN role TEXT NOT NULL DEFAULT 'admin'
  CHECK (role IN ('viewer', 'support', 'finance', 'admin'));
