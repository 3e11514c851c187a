/** Notification calls of the upstream (upstream/API.md "Notifications"). */
import * as notifyApi from "@contract/api/notify";
import type { NoticePage, NoticeSettings } from "@contract/api/notify";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** The account's notices, newest first, one page, with the unread count. */
export function noticeList(c: Caller, page: number): Promise<UpstreamResult<NoticePage>> {
  return send<NoticePage>(c, notifyApi.noticeList, { page });
}

export function noticesRead(c: Caller): Promise<UpstreamResult<{ unread: number }>> {
  return send<{ unread: number }>(c, notifyApi.noticesRead, {});
}

export function noticeSettings(c: Caller): Promise<UpstreamResult<NoticeSettings>> {
  return send<NoticeSettings>(c, notifyApi.noticeSettings, {});
}

/** Saves every kind's channels: `email_KIND` and `push_KIND` set to "1" when ticked. */
export function noticeSettingsSave(
  c: Caller,
  ticked: Record<string, "1">,
): Promise<UpstreamResult<NoticeSettings>> {
  return send<NoticeSettings>(c, notifyApi.noticeSettingsSave, ticked);
}

export function pushKey(c: Caller): Promise<UpstreamResult<{ public_key: string }>> {
  return send<{ public_key: string }>(c, notifyApi.pushKey, {});
}

export function pushSubscribe(
  c: Caller,
  p: { endpoint: string; p256dh: string; auth: string },
): Promise<UpstreamResult<null>> {
  return send<null>(c, notifyApi.pushSubscribe, p);
}

export function pushUnsubscribe(c: Caller, endpoint: string): Promise<UpstreamResult<null>> {
  return send<null>(c, notifyApi.pushUnsubscribe, { endpoint });
}
