-- Tokens end after TOKEN_IDLE_S without use, besides their absolute lifetime (platform/http/auth.ts).
ALTER TABLE tokens ADD COLUMN idle_s INTEGER NOT NULL DEFAULT 604800;
ALTER TABLE tokens ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
