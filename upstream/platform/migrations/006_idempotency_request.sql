-- The fingerprint of the request a key was first used for (route and parameters): the same key
-- with another request is refused. Keys stored before it get an empty one (they only expire).
ALTER TABLE idempotency ADD COLUMN request_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX idempotency_created ON idempotency(created_at);
