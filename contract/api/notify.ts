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
