-- Delivery of notifications beyond the app (modules/notify/delivery.ts, push.ts).
-- The browsers' Web Push subscriptions (the push service's endpoint and the browser's keys), with
-- the language the device asked in (its pushes are written in it).
CREATE TABLE push_subscriptions (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  endpoint TEXT NOT NULL UNIQUE,
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  lang TEXT NOT NULL,
  user_agent TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
-- Per account and kind, the channels beyond the app (in the app is always on); no row: the
-- defaults (Web Push on, e-mail off).
CREATE TABLE notice_prefs (
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL,
  email INTEGER NOT NULL,
  push INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind)
);
-- One delivery of a notification on one channel, written with the notification; the sender takes
-- due ones (next_at), retries with back-off, and records done_at or gives up (failed_at).
CREATE TABLE notice_deliveries (
  id INTEGER PRIMARY KEY,
  notice_id INTEGER NOT NULL REFERENCES notifications(id),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'push')),
  subscription_id INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  done_at INTEGER,
  failed_at INTEGER,
  error TEXT
);
CREATE INDEX notice_deliveries_due ON notice_deliveries(next_at) WHERE done_at IS NULL AND failed_at IS NULL;
-- The VAPID key pair the pushes are signed with: made once, the private key sealed.
CREATE TABLE push_keys (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
