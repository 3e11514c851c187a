-- A free-text note on a ledger row (e.g. an operator's reason for an adjustment).
ALTER TABLE ledger ADD COLUMN memo TEXT;
