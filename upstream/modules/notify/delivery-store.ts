/**
 * The delivery tables (migration 038): push_subscriptions, notice_prefs, notice_deliveries and
 * push_keys.
 */
import type { DB } from "../../platform/db.js";
import { allLater } from "../../platform/store/read-later.js";

export interface SubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  lang: string;
}

export interface DueDelivery {
  id: number;
  notice_id: number;
  channel: "email" | "push";
  subscription_id: number | null;
  attempts: number;
  user_id: number;
  kind: string;
  params: string;
  email: string | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  lang: string | null;
}

const DUE = `SELECT d.id, d.notice_id, d.channel, d.subscription_id, d.attempts, n.user_id, n.kind, n.params,
    u.email, s.endpoint, s.p256dh, s.auth, s.lang
  FROM notice_deliveries d
  JOIN notifications n ON n.id = d.notice_id
  JOIN users u ON u.id = n.user_id
  LEFT JOIN push_subscriptions s ON s.id = d.subscription_id
  WHERE d.done_at IS NULL AND d.failed_at IS NULL AND d.next_at <= ?
  ORDER BY d.next_at, d.id LIMIT ?`;

function prepare(db: DB) {
  return {
    subscribe: db.prepare(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, lang, user_agent, created_at)
       VALUES (@userId, @endpoint, @p256dh, @auth, @lang, @userAgent, @at)
       ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, p256dh = excluded.p256dh,
         auth = excluded.auth, lang = excluded.lang, user_agent = excluded.user_agent`,
    ),
    unsubscribe: db.prepare(
      "DELETE FROM push_subscriptions WHERE endpoint = @endpoint AND user_id = @userId",
    ),
    dropSubscription: db.prepare("DELETE FROM push_subscriptions WHERE id = ?"),
    subscriptionsOf: db.prepare(
      "SELECT id, endpoint, p256dh, auth, lang FROM push_subscriptions WHERE user_id = ? ORDER BY id",
    ),
    prefsOf: db.prepare("SELECT kind, email, push FROM notice_prefs WHERE user_id = ?"),
    pref: db.prepare("SELECT email, push FROM notice_prefs WHERE user_id = ? AND kind = ?"),
    setPref: db.prepare(
      `INSERT INTO notice_prefs (user_id, kind, email, push) VALUES (@userId, @kind, @email, @push)
       ON CONFLICT (user_id, kind) DO UPDATE SET email = excluded.email, push = excluded.push`,
    ),
    enqueue: db.prepare(
      `INSERT INTO notice_deliveries (notice_id, channel, subscription_id, next_at)
       VALUES (@noticeId, @channel, @subscriptionId, @at)`,
    ),
    done: db.prepare(
      "UPDATE notice_deliveries SET done_at = @at, attempts = attempts + 1, error = NULL WHERE id = @id",
    ),
    retry: db.prepare(
      "UPDATE notice_deliveries SET attempts = attempts + 1, next_at = @nextAt, error = @error WHERE id = @id",
    ),
    failed: db.prepare(
      "UPDATE notice_deliveries SET attempts = attempts + 1, failed_at = @at, error = @error WHERE id = @id",
    ),
    keys: db.prepare("SELECT public_key, private_key FROM push_keys WHERE id = 1"),
    insertKeys: db.prepare(
      `INSERT INTO push_keys (id, public_key, private_key, created_at) VALUES (1, @publicKey, @privateKey, @at)
       ON CONFLICT (id) DO NOTHING`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

export function saveSubscription(
  db: DB,
  s: {
    userId: number;
    endpoint: string;
    p256dh: string;
    auth: string;
    lang: string;
    userAgent: string | null;
    at: number;
  },
): void {
  stmts(db).subscribe.run(s);
}

/** Removes a user's subscription by its endpoint; false when the user had none there. */
export function removeSubscription(db: DB, q: { endpoint: string; userId: number }): boolean {
  return stmts(db).unsubscribe.run(q).changes === 1;
}

/** Removes a subscription the push service no longer knows (404 or 410). */
export function dropSubscription(db: DB, id: number): void {
  stmts(db).dropSubscription.run(id);
}

export function subscriptionsOf(db: DB, userId: number): SubscriptionRow[] {
  return stmts(db).subscriptionsOf.all(userId) as SubscriptionRow[];
}

export function prefsOf(db: DB, userId: number): { kind: string; email: number; push: number }[] {
  return stmts(db).prefsOf.all(userId) as { kind: string; email: number; push: number }[];
}

export function prefOf(
  db: DB,
  userId: number,
  kind: string,
): { email: number; push: number } | undefined {
  return stmts(db).pref.get(userId, kind) as { email: number; push: number } | undefined;
}

export function setPref(
  db: DB,
  p: { userId: number; kind: string; email: number; push: number },
): void {
  stmts(db).setPref.run(p);
}

export function enqueueDelivery(
  db: DB,
  d: { noticeId: number; channel: "email" | "push"; subscriptionId: number | null; at: number },
): void {
  stmts(db).enqueue.run(d);
}

/** Deliveries due at `now`, oldest first, read without holding the event loop. */
export async function dueDeliveriesLater(
  db: DB,
  q: { now: number; limit: number },
): Promise<DueDelivery[]> {
  return (await allLater(db, DUE, q.now, q.limit)) as DueDelivery[];
}

export function deliveryDone(db: DB, q: { id: number; at: number }): void {
  stmts(db).done.run(q);
}

export function deliveryRetry(db: DB, q: { id: number; nextAt: number; error: string }): void {
  stmts(db).retry.run(q);
}

export function deliveryFailed(db: DB, q: { id: number; at: number; error: string }): void {
  stmts(db).failed.run(q);
}

export function pushKeys(db: DB): { public_key: string; private_key: string } | undefined {
  return stmts(db).keys.get() as { public_key: string; private_key: string } | undefined;
}

/** Keeps a key pair unless one was kept already (two nodes making one at once keep the first). */
export function insertPushKeys(
  db: DB,
  k: { publicKey: string; privateKey: string; at: number },
): void {
  stmts(db).insertKeys.run(k);
}
