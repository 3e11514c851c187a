-- The web's own tables (cluster mode: the web nodes share this database), made here rather than by
-- the web at start, so that the web's role needs no right to create anything. The web connects
-- as a role that is, or is a member of, tradepost_web, which may read and write these tables only
-- (docs/deploy.md "Database and roles").
--
-- web_pending_signouts: sign-outs the upstream has not confirmed yet (app/utils/
-- revocations-shared.server.ts), each token as its SHA-256 and sealed under SESSION_SECRET.
CREATE TABLE IF NOT EXISTS web_pending_signouts (
  token_hash TEXT PRIMARY KEY,
  sealed TEXT NOT NULL,
  since TIMESTAMPTZ NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS web_pending_signouts_next_at ON web_pending_signouts (next_at);

-- The role of the web nodes, when whoever migrates may create it (else the database's
-- administrator creates it, as deploy.md says, and grants what follows).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tradepost_web') THEN
    BEGIN
      CREATE ROLE tradepost_web NOLOGIN;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'role tradepost_web not created (no CREATEROLE): create it and grant it web_ tables';
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'tradepost_web') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON web_pending_signouts TO tradepost_web;
    -- The table of earlier releases (tokens kept as they were): the web moves its rows, sealed,
    -- and empties it.
    IF to_regclass('web_pending_revocations') IS NOT NULL THEN
      GRANT SELECT, DELETE ON web_pending_revocations TO tradepost_web;
    END IF;
  END IF;
END $$;
