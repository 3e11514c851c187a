/**
 * News and announcements on the web: article HTML sanitised again before it is rendered (the
 * contract's allow-list, the same as the upstream's when it was stored), pictures served under
 * /media/news/, and the policy notice shown once to a new visitor.
 */
import { rememberedCookie } from "~/utils/remembered-cookie.server";
import { NEWS_IMAGE_PATH, type Notice, type NoticeDetail } from "@contract/api/content";
import { sanitizeContent } from "@contract/content-html";
import type { Caller } from "~/upstream/client.server";
import { noticeInfo, noticeList } from "~/upstream/content.server";

export { sanitizeContent };

/** A picture path of the upstream (NEWS_IMAGE_PATH + file) as the web serves it, or "" without one. */
export function newsPictureSrc(logo: string): string {
  if (!logo.startsWith(NEWS_IMAGE_PATH)) return "";
  const file = logo.slice(NEWS_IMAGE_PATH.length);
  return /^[a-z0-9-]{1,60}\.(svg|png)$/.test(file) ? `/media/news/${file}` : "";
}

/** The `?id=` of a detail page: a whole number from 1, else null. */
export function idParam(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("id") ?? "";
  return /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** The `?page=` of a list: a whole number from 1 (anything else is page 1). */
export function pageParamOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get("page") ?? "1";
  return /^\d{1,6}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
}

/**
 * When the policy notice a visitor dismissed was published (the upstream's "YYYY-MM-DD HH:mm:ss").
 * It holds for that notice in every language (each language has its own copy, published together);
 * a policy notice published later is shown again. Read by the server only.
 */
export const policySeenCookie = rememberedCookie("tp_policy_seen");

interface PolicyNotice {
  id: number;
  /** When it was published: what a dismissal remembers. */
  version: string;
  title: string;
  html: string;
}

/** Policy notices by language, kept for a short time: the same for every visitor of a language. */
const POLICY_TTL_MS = 60_000;
const policyCache = new Map<string, { at: number; notice: PolicyNotice | null }>();

/** The policy notice, null when there is none, undefined when the upstream did not answer. */
async function fetchPolicy(caller: Caller): Promise<PolicyNotice | null | undefined> {
  const list = await noticeList(caller, 1, true);
  if (!list.ok) return undefined;
  const first: Notice | undefined = list.data.list.find((n) => n.is_policy === 1);
  if (!first) return null;
  const detail = await noticeInfo(caller, first.id, true);
  if (!detail.ok) return undefined;
  const d: NoticeDetail = detail.data;
  return { id: d.id, version: d.created_at, title: d.title, html: sanitizeContent(d.content) };
}

/** The policy notice to show this visitor (in their language), or null once dismissed. */
export async function policyNoticeFor(
  request: Request,
  caller: Caller,
): Promise<PolicyNotice | null> {
  const seen: unknown = await policySeenCookie.parse(request.headers.get("Cookie"));
  const now = Date.now();
  let hit = policyCache.get(caller.lang);
  if (!hit || now - hit.at > POLICY_TTL_MS) {
    const fetched = await fetchPolicy(caller);
    // An unreachable upstream is asked again at the next page, not after the whole period.
    if (fetched === undefined) return null;
    hit = { at: now, notice: fetched };
    policyCache.set(caller.lang, hit);
  }
  const notice = hit.notice;
  const dismissed = typeof seen === "string" && notice !== null && seen >= notice.version;
  return dismissed ? null : notice;
}

/** Forgets the kept policy notices (after an operator changed an announcement on this web). */
export function forgetPolicyNotices(): void {
  policyCache.clear();
}
