/**
 * Message delivery. Every message is written to the outbox table first; then a sender delivers it:
 * e-mail over SMTP (nodemailer) when SMTP_URL is set, SMS to the gateway's webhook when
 * SMS_WEBHOOK_URL is set (or a sender plugged in with setSmsSender). Without one, a channel's
 * messages are only kept in the outbox, where GET /dev/outbox serves the latest code while
 * DEV_OUTBOX is on (never in production); with DEV_OUTBOX off, such a send is refused.
 */
import nodemailer from "nodemailer";
import type { CodePurpose } from "@contract/enums";
import type { UpstreamConfig } from "../config.js";
import type { DB } from "../db.js";
import { DomainError } from "../errors.js";
import {
  deleteOldMessages,
  insertMessage,
  latestCodeTo,
  latestCodeToDialled,
  markMessageFailed,
  markMessageSent,
} from "./outbox-store.js";

/** How long a delivered or stored message (which holds a code) stays in the outbox (15 min). */
export const OUTBOX_RETENTION_MS = 15 * 60 * 1000;

type Channel = "email" | "sms";

/** What delivery needs of the upstream: its store, its mail settings and a logger. */
export interface MailContext {
  db: DB;
  config: Pick<
    UpstreamConfig,
    "smtpUrl" | "mailFrom" | "smsWebhookUrl" | "smsWebhookToken" | "devOutbox"
  >;
  log: { error(obj: unknown, msg?: string): void };
}

export interface OutgoingMessage {
  channel: Channel;
  /** E-mail address, or the mobile number in international form (e.g. "+85291234567"). */
  to: string;
  subject: string | null;
  body: string;
}

/** Delivers one message or throws. "stored" means it was only kept in the outbox. */
export interface MessageSender {
  send(msg: OutgoingMessage): Promise<"sent" | "stored">;
}

/** Keeps messages in the outbox only (the default for SMS, and for e-mail without SMTP_URL). */
export const outboxOnlySender: MessageSender = {
  async send() {
    return "stored";
  },
};

export function smtpSender(smtpUrl: string, from: string): MessageSender {
  // Bounded waits, so that a silent mail server cannot hold a request (the URL may override them).
  const u = new URL(smtpUrl);
  for (const [k, v] of [
    ["connectionTimeout", "10000"],
    ["greetingTimeout", "10000"],
    ["socketTimeout", "20000"],
  ]) {
    if (!u.searchParams.has(k)) u.searchParams.set(k, v);
  }
  const transport = nodemailer.createTransport(u.toString());
  return {
    async send(msg) {
      await transport.sendMail({ from, to: msg.to, subject: msg.subject ?? "", text: msg.body });
      return "sent";
    },
  };
}

/** How long the SMS gateway may take to accept a text. */
export const SMS_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Sends each SMS as `POST url` with the JSON body { "to": "+<country code><number>", "text": ... }
 * (and "Authorization: Bearer <token>" when a token is set): the shape most SMS gateways, or a few
 * lines of glue in front of one, accept. Any answer but 2xx is a failed delivery.
 */
export function webhookSmsSender(url: string, token: string | null): MessageSender {
  return {
    async send(msg) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (token) headers.authorization = `Bearer ${token}`;
      const res = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ to: msg.to, text: msg.body }),
        signal: AbortSignal.timeout(SMS_WEBHOOK_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
      return "sent";
    },
  };
}

interface Senders {
  email: MessageSender;
  sms: MessageSender;
}

const senders = new WeakMap<MailContext, Senders>();

function sendersOf(ctx: MailContext): Senders {
  let s = senders.get(ctx);
  if (!s) {
    s = {
      email: ctx.config.smtpUrl
        ? smtpSender(ctx.config.smtpUrl, ctx.config.mailFrom)
        : outboxOnlySender,
      sms: ctx.config.smsWebhookUrl
        ? webhookSmsSender(ctx.config.smsWebhookUrl, ctx.config.smsWebhookToken)
        : outboxOnlySender,
    };
    senders.set(ctx, s);
  }
  return s;
}

/** Plugs in the SMS gateway (e.g. an HTTP SMS provider) of an upstream instance. */
export function setSmsSender(ctx: MailContext, sender: MessageSender): void {
  sendersOf(ctx).sms = sender;
}

/** Replaces the e-mail sender of an upstream instance (SMTP_URL configures the usual one). */
export function setEmailSender(ctx: MailContext, sender: MessageSender): void {
  sendersOf(ctx).email = sender;
}

export interface CodeMessage {
  channel: Channel;
  /** What the outbox and /dev/outbox know the recipient by: the e-mail, or the mobile digits. */
  recipient: string;
  areaId: number | null;
  /** Delivery address (e-mail, or "+CC" + digits). */
  to: string;
  /** A CodePurpose, or 3 (binding an e-mail to a signed-in account). */
  purpose: CodePurpose | 3;
  code: string;
  subject: string | null;
  body: string;
}

/**
 * Writes the message to the outbox and delivers it; resolves false when delivery failed. Refuses
 * (delivery_not_configured) when its channel has no sender and the dev outbox is off, since the
 * message would reach no one. Deletes messages older than OUTBOX_RETENTION_MS (failed ones stay).
 */
export async function deliver(ctx: MailContext, m: CodeMessage): Promise<boolean> {
  const db: DB = ctx.db;
  const keep = ctx.config.devOutbox;
  const sender = m.channel === "email" ? sendersOf(ctx).email : sendersOf(ctx).sms;
  if (sender === outboxOnlySender && !keep)
    throw new DomainError("accounts.delivery_not_configured");
  deleteOldMessages(db, { createdBefore: Date.now() - OUTBOX_RETENTION_MS });
  const storedBody = keep ? m.body : m.body.split(m.code).join("******");
  const id = insertMessage(db, {
    channel: m.channel,
    recipient: m.recipient,
    areaId: m.areaId,
    purpose: m.purpose,
    code: keep ? m.code : null,
    subject: m.subject,
    body: storedBody,
    createdAt: Date.now(),
  });
  try {
    const status = await sender.send({
      channel: m.channel,
      to: m.to,
      subject: m.subject,
      body: m.body,
    });
    if (status === "sent") markMessageSent(db, { id, sentAt: Date.now() });
    return true;
  } catch (err) {
    ctx.log.error({ err, channel: m.channel }, "message delivery failed");
    markMessageFailed(db, { id, error: String((err as Error)?.message ?? err).slice(0, 500) });
    return false;
  }
}

/** The outbox's purpose of a notice (no code): a sign-in from a new device, a reset by support. */
export const NOTICE_PURPOSE = 0;

/**
 * Writes a notice e-mail to the outbox and delivers it; false when delivery failed. Without an
 * e-mail sender the notice is only kept in the outbox (never refused: nothing waits for it).
 */
export async function deliverNotice(
  ctx: MailContext,
  m: { to: string; subject: string; body: string },
): Promise<boolean> {
  const db: DB = ctx.db;
  const id = insertMessage(db, {
    channel: "email",
    recipient: m.to,
    areaId: null,
    purpose: NOTICE_PURPOSE,
    code: null,
    subject: m.subject,
    body: m.body,
    createdAt: Date.now(),
  });
  try {
    const status = await sendersOf(ctx).email.send({ channel: "email", ...m });
    if (status === "sent") markMessageSent(db, { id, sentAt: Date.now() });
    return true;
  } catch (err) {
    ctx.log.error({ err, channel: "email" }, "notice delivery failed");
    markMessageFailed(db, { id, error: String((err as Error)?.message ?? err).slice(0, 500) });
    return false;
  }
}

/** The latest code sent to an address (e-mail, mobile digits, or "+CC" + digits), for /dev/outbox. */
export function latestOutboxCode(
  db: DB,
  to: string,
): { to: string; code: string; type: number; created_at: number } | null {
  const t = to.trim();
  const lower = t.toLowerCase();
  let row = latestCodeTo(db, {
    recipient: lower.includes("@") ? lower : t.replace(/[\s\-().]/g, ""),
  });
  if (!row && t.startsWith("+")) {
    // "+CC" + digits: match on the area's dialling code.
    const digits = t.replace(/[^\d]/g, "");
    row = latestCodeToDialled(db, { digits });
  }
  return row
    ? { to: row.recipient, code: row.code, type: row.purpose, created_at: row.created_at }
    : null;
}
