-- The audit log by actor: the console filters it to one operator's rows, newest first.
CREATE INDEX audit_actor ON audit(actor, id);
