/**
 * Account notifications: `notify` writes one in the caller's transaction (the event's own: a
 * deposit credited, a take-profit booked), so a notice exists exactly when its event does; once
 * the transaction has committed, the listeners of the store hear whose unread count changed (the
 * websocket's NOTICE push). The texts are made when read, in the reader's language, from the kind
 * and the figures kept with it (upstream/locales/<lang>/notify.json: notice.KIND.title, .body).
 */
import type { Notice, NoticeKind } from "@contract/api/notify";
import type { DB } from "../../platform/db.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { afterCommit } from "../../platform/store/sequencer.js";
import { wireTime } from "../../platform/wire.js";
import { insertNotice, type NoticeRow } from "./store.js";
import { enqueueDelivery, prefOf, subscriptionsOf } from "./delivery-store.js";

/** The channels beyond the app of a kind with no choice stored: Web Push on, e-mail off. */
export const DEFAULT_CHANNELS = { email: 0, push: 1 } as const;
/** Kinds whose e-mail is sent by their own module (a new device's sign-in): never queued twice. */
const MAILED_ELSEWHERE: readonly NoticeKind[] = ["new_device"];

/**
 * Queues a notice's deliveries beyond the app, in the notice's transaction: one per Web Push
 * subscription of the account and, when chosen, one e-mail (the sender, delivery.ts, takes them).
 */
function enqueueDeliveries(
  db: DB,
  n: { noticeId: number; userId: number; kind: NoticeKind; at: number },
): void {
  const pref = prefOf(db, n.userId, n.kind) ?? DEFAULT_CHANNELS;
  if (pref.push)
    for (const s of subscriptionsOf(db, n.userId))
      enqueueDelivery(db, {
        noticeId: n.noticeId,
        channel: "push",
        subscriptionId: s.id,
        at: n.at,
      });
  if (pref.email && !MAILED_ELSEWHERE.includes(n.kind))
    enqueueDelivery(db, { noticeId: n.noticeId, channel: "email", subscriptionId: null, at: n.at });
}

/** A notice's figures, as its text shows them. */
export type NoticeParams = Record<string, string | number>;

const listeners = new WeakMap<DB, Set<(userId: number) => void>>();

/** Writes a notice of `userId` in the current transaction; its listeners hear of it after commit. */
export function notify(
  db: DB,
  n: { userId: number; kind: NoticeKind; params?: NoticeParams; at?: number },
): void {
  const at = n.at ?? Date.now();
  const noticeId = insertNotice(db, {
    userId: n.userId,
    kind: n.kind,
    params: JSON.stringify(n.params ?? {}),
    at,
  });
  enqueueDeliveries(db, { noticeId, userId: n.userId, kind: n.kind, at });
  announce(db, n.userId);
}

/** Tells the listeners, once committed, that `userId`'s unread count changed. */
export function announce(db: DB, userId: number): void {
  const fns = listeners.get(db);
  if (!fns || fns.size === 0) return;
  // Outside the transaction: what hears it reads what was committed.
  afterCommit(db, () =>
    setImmediate(() => {
      for (const fn of fns) fn(userId);
    }),
  );
}

/** Hears every change of a user's unread count on this store; answers the unsubscribe. */
export function onNotice(db: DB, fn: (userId: number) => void): () => void {
  let set = listeners.get(db);
  if (!set) listeners.set(db, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/** A stored notice as the reader sees it, in their language. */
export function noticeView(lang: Lang, r: NoticeRow): Notice {
  let params: NoticeParams = {};
  try {
    params = JSON.parse(r.params) as NoticeParams;
  } catch {
    params = {};
  }
  return {
    id: r.id,
    kind: r.kind as NoticeKind,
    title: translate(lang, `notice.${r.kind}.title`, params),
    // A kind with variants (a price alert's condition) keeps its variant with its figures.
    body: translate(
      lang,
      `notice.${r.kind}.body${typeof params.variant === "string" ? `_${params.variant}` : ""}`,
      params,
    ),
    created_at: wireTime(r.created_at),
    read: r.read_at !== null,
  };
}
