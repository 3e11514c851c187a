/** The announcements editor's server side: announcements of GET /admin/api/notices. */
import { NOTICE_FIELDS } from "~/schemas/content";
import { adminNotices, saveNotice } from "~/upstream/content.server";
import { editorRoute } from "~/utils/content-editor.server";

export const { loader, action } = editorRoute({
  path: "/operator/notices",
  fields: NOTICE_FIELDS,
  list: adminNotices,
  save: saveNotice,
  extra: async () => null,
});
