/** The news editor's server side: news items of GET /admin/api/news, with the categories and pictures to choose from. */
import { NEWS_FIELDS } from "~/schemas/content";
import { adminNews, newsCategories, newsImages, saveNews } from "~/upstream/content.server";
import { editorRoute } from "~/utils/content-editor.server";

export const { loader, action } = editorRoute({
  path: "/operator/news",
  fields: NEWS_FIELDS,
  list: adminNews,
  save: saveNews,
  extra: async (ctx) => {
    const [categories, images] = await Promise.all([newsCategories(ctx), newsImages(ctx)]);
    return {
      categories: categories.ok ? categories.data : [],
      images: images.ok ? images.data : [],
    };
  },
});
