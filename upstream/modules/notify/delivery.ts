/**
 * The sender of notifications beyond the app, on the leading node: every SEND_INTERVAL_MS it takes
 * the deliveries that are due (queued with their notice, delivery-store.ts) and sends each: a Web
 * Push message (the standard protocol: the payload encrypted with aes128gcm for the browser's keys,
 * the request signed with the VAPID key pair) or an e-mail (platform/mail). A delivery is sent at
 * least once: one that fails is tried again after a back-off (BACKOFF_BASE_MS doubling, at most
 * BACKOFF_MAX_MS) until MAX_ATTEMPTS; a subscription the push service answers 404 or 410 for is
 * gone, and is removed.
 *
 * VAPID keys are made once and kept in the store (the private key sealed with the operators' key),
 * so every node signs with the same pair and browsers keep their subscriptions across restarts.
 */
import https from "node:https";
import tls from "node:tls";
import webpush from "web-push";
import type { NoticeKind } from "@contract/api/notify";
import type { DB } from "../../platform/db.js";
import { normaliseLang } from "../../platform/i18n.js";
import { deliverNotice, type MailContext } from "../../platform/mail/outbox.js";
import { seal, unseal } from "../../platform/secret-box.js";
import { noticeView } from "./notices.js";
import {
  deliveryDone,
  deliveryFailed,
  deliveryRetry,
  dropSubscription,
  dueDeliveriesLater,
  insertPushKeys,
  pushKeys,
  type DueDelivery,
} from "./delivery-store.js";

export const SEND_INTERVAL_MS = 1_000;
export const BACKOFF_BASE_MS = 5_000;
export const BACKOFF_MAX_MS = 3_600_000;
export const MAX_ATTEMPTS = 10;
/** How long a push service keeps a message for a browser that is offline. */
const PUSH_TTL_S = 24 * 3600;
const PUSH_TIMEOUT_MS = 10_000;
/** Deliveries one round takes at most. */
const ROUND = 50;

/** The VAPID key pair of a store: the kept one, or one made and kept now. */
export function vapidKeys(db: DB, key: Buffer): { publicKey: string; privateKey: string } {
  let kept = pushKeys(db);
  if (!kept) {
    const made = webpush.generateVAPIDKeys();
    insertPushKeys(db, {
      publicKey: made.publicKey,
      privateKey: seal(key, made.privateKey),
      at: Date.now(),
    });
    kept = pushKeys(db)!;
  }
  return { publicKey: kept.public_key, privateKey: unseal(key, kept.private_key) };
}

/** The page a notice opens when its push is tapped. */
function pageOf(kind: NoticeKind, params: Record<string, unknown>): string {
  if (kind === "price_alert" && typeof params.code === "string")
    return `/trade?code=${encodeURIComponent(params.code)}`;
  if (kind === "new_device") return "/mine/security";
  return "/mine/notifications";
}

export interface SenderDeps {
  db: DB;
  mail: MailContext;
  /** The key that seals the VAPID private key. */
  sealingKey(): Buffer;
  /** VAPID's contact: the web's address (https://…) or a mailto: address. */
  subject: string;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  now?: () => number;
  intervalMs?: number;
  /** PEM certificates trusted besides the system's for push endpoints (config PUSH_CA_FILE). */
  pushCa?: string | null;
}

export class NoticeSender {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly agent: https.Agent | undefined;

  constructor(private readonly d: SenderDeps) {
    this.now = d.now ?? Date.now;
    this.agent = d.pushCa
      ? new https.Agent({ ca: [...tls.rootCertificates, d.pushCa], keepAlive: true })
      : undefined;
  }

  start(): void {
    this.timer = setInterval(() => void this.round(), this.d.intervalMs ?? SEND_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sends what is due now (one round at a time); resolves when the round is done. */
  round(): Promise<void> {
    this.running ??= this.sendDue().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sendDue(): Promise<void> {
    const due = await dueDeliveriesLater(this.d.db, { now: this.now(), limit: ROUND });
    for (const d of due) await this.send(d);
  }

  private async send(d: DueDelivery): Promise<void> {
    const db = this.d.db;
    const lang = normaliseLang(d.lang);
    const view = noticeView(lang, {
      id: d.notice_id,
      kind: d.kind,
      params: d.params,
      created_at: 0,
      read_at: null,
    });
    try {
      if (d.channel === "push") {
        const params = JSON.parse(d.params) as Record<string, unknown>;
        const url = pageOf(d.kind as NoticeKind, params);
        const keys = vapidKeys(db, this.d.sealingKey());
        await webpush.sendNotification(
          { endpoint: d.endpoint!, keys: { p256dh: d.p256dh!, auth: d.auth! } },
          JSON.stringify({ title: view.title, body: view.body, url, id: d.notice_id }),
          {
            TTL: PUSH_TTL_S,
            timeout: PUSH_TIMEOUT_MS,
            contentEncoding: "aes128gcm",
            ...(this.agent ? { agent: this.agent } : {}),
            vapidDetails: { subject: this.d.subject, ...keys },
          },
        );
      } else if (d.email) {
        const sent = await deliverNotice(this.d.mail, {
          to: d.email,
          subject: view.title,
          body: view.body,
        });
        if (!sent) throw new Error("the mail server refused the notice");
      }
      deliveryDone(db, { id: d.id, at: this.now() });
    } catch (err) {
      this.failed(d, err);
    }
  }

  private failed(d: DueDelivery, err: unknown): void {
    const db = this.d.db;
    const status = (err as { statusCode?: number }).statusCode;
    const error = String((err as Error)?.message ?? err).slice(0, 300);
    if (d.channel === "push" && (status === 404 || status === 410)) {
      // The browser unsubscribed (or the push service forgot it): nothing will ever reach it.
      deliveryFailed(db, { id: d.id, at: this.now(), error: `gone (${status})` });
      if (d.subscription_id !== null) dropSubscription(db, d.subscription_id);
      return;
    }
    if (d.attempts + 1 >= MAX_ATTEMPTS) {
      this.d.log.warn({ delivery: d.id, error }, "notice delivery given up");
      deliveryFailed(db, { id: d.id, at: this.now(), error });
      return;
    }
    const waitMs = Math.min(BACKOFF_BASE_MS * 2 ** d.attempts, BACKOFF_MAX_MS);
    deliveryRetry(db, { id: d.id, nextAt: this.now() + waitMs, error });
  }
}
