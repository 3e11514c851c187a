-- Statements and the monthly statement e-mail (modules/statements).
-- A statement reads a user's ledger by the time its rows were booked.
CREATE INDEX ledger_user_time ON ledger(user_id, created_at);
-- The users who asked for the monthly statement by e-mail (a row: asked), with the language the
-- request was made in (the e-mail is written in it) and since when (a month that ended before is
-- not sent).
CREATE TABLE statement_mail_prefs (
  user_id BIGINT PRIMARY KEY REFERENCES users(id),
  lang TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
-- One row per user and month ("YYYY-MM") whose statement e-mail the leader took on: written before
-- it is sent, so a month is sent once; sent_at when the mail server took it, a failure tried again
-- at next_at until failed_at.
CREATE TABLE statement_mails (
  user_id BIGINT NOT NULL REFERENCES users(id),
  month TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  attempts BIGINT NOT NULL DEFAULT 0,
  next_at BIGINT NOT NULL,
  sent_at BIGINT,
  failed_at BIGINT,
  error TEXT,
  PRIMARY KEY (user_id, month)
);
CREATE INDEX statement_mails_due ON statement_mails(next_at) WHERE sent_at IS NULL AND failed_at IS NULL;
