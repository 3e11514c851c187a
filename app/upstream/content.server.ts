/**
 * News and announcements (contract/api/content.ts, upstream/API.md "Content"): the readers' calls
 * and the editors' (with the console session's token, through opCall).
 */
import * as contentApi from "@contract/api/content";
import type { AdminPage } from "@contract/api/admin";
import { pathOf } from "@contract/api/endpoint";
import { send, type Caller, type UpstreamResult } from "./client.server";
import { opCall, type CatalogFields, type Ctx } from "./operator.server";

import type {
  AdminNews,
  AdminNewsCategory,
  AdminNotice,
  NewsDetail,
  NewsPage,
  NoticeDetail,
  NoticePage,
} from "@contract/api/content";

export function newsList(
  c: Caller,
  q: { category_id?: number; page: number },
): Promise<UpstreamResult<NewsPage>> {
  return send<NewsPage>(c, contentApi.newsList, q);
}

export function newsInfo(c: Caller, id: number): Promise<UpstreamResult<NewsDetail>> {
  return send<NewsDetail>(c, contentApi.newsInfo, { id });
}

/** `soft`: an unreachable upstream is a result, not the "temporarily unavailable" page. */
export function noticeList(
  c: Caller,
  page: number,
  soft = false,
): Promise<UpstreamResult<NoticePage>> {
  return send<NoticePage>(c, contentApi.noticeList, { page }, { soft });
}

export function noticeInfo(
  c: Caller,
  id: number,
  soft = false,
): Promise<UpstreamResult<NoticeDetail>> {
  return send<NoticeDetail>(c, contentApi.noticeInfo, { id }, { soft });
}

/* ---- the editors ---------------------------------------------------------------------------- */

export const newsCategories = ({ request, op }: Ctx) =>
  opCall<AdminNewsCategory[]>(
    request,
    op,
    contentApi.adminNewsCategories,
    contentApi.adminNewsCategories.path,
  );

export const addNewsCategory = ({ request, op }: Ctx, body: CatalogFields) =>
  opCall<AdminNewsCategory>(
    request,
    op,
    contentApi.addNewsCategory,
    contentApi.addNewsCategory.path,
    body,
  );

export const updateNewsCategory = ({ request, op }: Ctx, id: number, body: CatalogFields) =>
  opCall<AdminNewsCategory>(
    request,
    op,
    contentApi.updateNewsCategory,
    pathOf(contentApi.updateNewsCategory, { id }),
    body,
  );

export const newsImages = ({ request, op }: Ctx) =>
  opCall<string[]>(request, op, contentApi.adminNewsImages, contentApi.adminNewsImages.path);

export const adminNews = ({ request, op }: Ctx, page: number) =>
  opCall<AdminPage<AdminNews>>(request, op, contentApi.adminNews, contentApi.adminNews.path, {
    page,
  });

export const saveNews = ({ request, op }: Ctx, id: number | null, body: CatalogFields) =>
  id === null
    ? opCall<AdminNews>(request, op, contentApi.addNews, contentApi.addNews.path, body)
    : opCall<AdminNews>(
        request,
        op,
        contentApi.updateNews,
        pathOf(contentApi.updateNews, { id }),
        body,
      );

export const adminNotices = ({ request, op }: Ctx, page: number) =>
  opCall<AdminPage<AdminNotice>>(
    request,
    op,
    contentApi.adminNotices,
    contentApi.adminNotices.path,
    { page },
  );

export const saveNotice = ({ request, op }: Ctx, id: number | null, body: CatalogFields) =>
  id === null
    ? opCall<AdminNotice>(request, op, contentApi.addNotice, contentApi.addNotice.path, body)
    : opCall<AdminNotice>(
        request,
        op,
        contentApi.updateNotice,
        pathOf(contentApi.updateNotice, { id }),
        body,
      );
