/** Companies' server side: every company of GET /admin/api/companies, edited with the catalogue's code. */
import { addCompany, companies, updateCompany } from "~/upstream/company.server";
import { catalogRoute } from "~/utils/catalog.server";

const COMPANY_FIELDS = [
  "name",
  "logo",
  "url",
  "subject",
  "registered_address",
  "location",
  "email",
  "status",
  "type",
  "loss_url",
  "enabled",
  "sort",
] as const;

export const { loader, action } = catalogRoute({
  path: "/operator/companies",
  fields: COMPANY_FIELDS,
  list: companies,
  add: addCompany,
  update: updateCompany,
});
