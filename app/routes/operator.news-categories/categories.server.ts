/** News categories' server side: GET /admin/api/news_categories, edited with the catalogue's code. */
import { addNewsCategory, newsCategories, updateNewsCategory } from "~/upstream/content.server";
import { catalogRoute } from "~/utils/catalog.server";

export const { loader, action } = catalogRoute({
  path: "/operator/news-categories",
  fields: ["name", "sort", "published"],
  list: newsCategories,
  add: addNewsCategory,
  update: updateNewsCategory,
});
