-- Session tokens are kept only as their SHA-256 (platform/http/auth.ts tokenHash). Tokens issued
-- before this migration were stored in clear: they are removed, and their holders sign in again.
DELETE FROM tokens;
ALTER TABLE tokens RENAME COLUMN token TO token_hash;
