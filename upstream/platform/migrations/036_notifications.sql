-- Account notifications (modules/notify): each written in the transaction of the event that caused
-- it (a take-profit booked, a deposit credited, a sign-in from a new device), with the figures its
-- text needs as JSON; read_at NULL while unread.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  kind TEXT NOT NULL,
  params TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  read_at INTEGER
);
CREATE INDEX notifications_user ON notifications(user_id, id);
CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL;
