/** Notification calls of the upstream (upstream/API.md "Notifications"). */
import * as notifyApi from "@contract/api/notify";
import type { NoticePage } from "@contract/api/notify";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** The account's notices, newest first, one page, with the unread count. */
export function noticeList(c: Caller, page: number): Promise<UpstreamResult<NoticePage>> {
  return send<NoticePage>(c, notifyApi.noticeList, { page });
}

export function noticesRead(c: Caller): Promise<UpstreamResult<{ unread: number }>> {
  return send<{ unread: number }>(c, notifyApi.noticesRead, {});
}
