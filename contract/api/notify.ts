/**
 * Account notifications (upstream/API.md "Notifications"): what happened to the account while the
 * user was away (a take-profit or stop-out, a pending order filled, a deposit credited, a
 * withdrawal paid, a verification decided, a sign-in from a new device), newest first, with the
 * unread ones marked; and marking them all read. The texts are the upstream's, in the request's
 * language. Real accounts and demo accounts alike.
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { pageField } from "../fields";
import { NOTICE_KINDS } from "./notify-rules";

export { NOTICE_KINDS, type NoticeKind } from "./notify-rules";

export const NoticeSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTICE_KINDS),
  title: z.string(),
  body: z.string(),
  created_at: z.string().describe("UTC"),
  read: z.boolean(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const NoticePageSchema = z.object({
  data: z.array(NoticeSchema).describe("PAGE_SIZE a page, newest first"),
  total: z.number().int(),
  unread: z.number().int().describe("the account's unread notifications"),
});
export type NoticePage = z.infer<typeof NoticePageSchema>;

export const noticeList = endpoint({
  data: NoticePageSchema,
  method: "GET",
  path: "/api/user/notices",
  auth: true,
  tag: "notifications",
  summary: "The account's notifications, newest first, a page of PAGE_SIZE, with the unread count",
  query: z.object({ page: pageField(), ...cacheBuster }),
});

export const noticesRead = endpoint({
  data: z.object({ unread: z.number().int() }),
  method: "POST",
  path: "/api/user/notices_read",
  auth: true,
  tag: "notifications",
  summary: "Mark every notification of the account read",
  body: z.object({}),
});

/** A kind's channels beyond the app (in the app is always on). */
export const NoticeChannelsSchema = z.object({
  kind: z.enum(NOTICE_KINDS),
  email: z.boolean(),
  push: z.boolean(),
});
export type NoticeChannels = z.infer<typeof NoticeChannelsSchema>;

export const NoticeSettingsSchema = z.object({
  kinds: z.array(NoticeChannelsSchema).describe("every kind, in NOTICE_KINDS order"),
  push_devices: z.number().int().describe("browsers of the account subscribed to Web Push"),
  has_email: z.boolean().describe("the account has an e-mail address to send to"),
});
export type NoticeSettings = z.infer<typeof NoticeSettingsSchema>;

/** A checkbox: "1" (or "on", "true") ticked; absent or anything else not. */
const ticked = z.preprocess((v) => v === "1" || v === "on" || v === "true" || v === 1, z.boolean());

export const noticeSettings = endpoint({
  data: NoticeSettingsSchema,
  method: "GET",
  path: "/api/user/notice_settings",
  auth: true,
  tag: "notifications",
  summary: "Per kind, whether a notification is also e-mailed and pushed (Web Push)",
  query: z.object({ ...cacheBuster }),
});

export const noticeSettingsSave = endpoint({
  data: NoticeSettingsSchema,
  method: "POST",
  path: "/api/user/notice_settings",
  auth: true,
  tag: "notifications",
  summary: "Set every kind's channels at once: email_KIND and push_KIND ticked (1) or not (absent)",
  body: z.object(
    Object.fromEntries(
      NOTICE_KINDS.flatMap((k) => [
        [`email_${k}`, ticked.optional()],
        [`push_${k}`, ticked.optional()],
      ]),
    ) as Record<
      `${"email" | "push"}_${(typeof NOTICE_KINDS)[number]}`,
      z.ZodOptional<typeof ticked>
    >,
  ),
});

export const pushKey = endpoint({
  data: z.object({ public_key: z.string().describe("the VAPID public key, base64url") }),
  method: "GET",
  path: "/api/push/key",
  auth: false,
  // Made once by the leader, which keeps it in the store.
  readsEngine: true,
  tag: "notifications",
  summary: "The Web Push application server key a browser subscribes with",
  query: z.object({ ...cacheBuster }),
});

export const pushSubscribe = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/push/subscribe",
  auth: true,
  tag: "notifications",
  summary: "Keep a browser's Web Push subscription (PushSubscription.toJSON's endpoint and keys)",
  body: z.object({
    endpoint: z.string().url().max(1000),
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{80,100}={0,2}$/),
    auth: z.string().regex(/^[A-Za-z0-9_-]{16,32}={0,2}$/),
  }),
});

export const pushUnsubscribe = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/push/unsubscribe",
  auth: true,
  tag: "notifications",
  summary: "Forget a browser's Web Push subscription",
  body: z.object({ endpoint: z.string().url().max(1000) }),
});
