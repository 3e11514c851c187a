/** Wire accounts' server side: bank accounts of GET /admin/api/wire_accounts. */
import { addWireAccount, updateWireAccount, wireAccounts } from "~/upstream/operator.server";
import { catalogRoute } from "~/utils/catalog.server";

export const { loader, action } = catalogRoute({
  path: "/operator/wire-accounts",
  fields: [
    "bank_coin",
    "bank_name",
    "bank_address",
    "bank_swift",
    "payee_name",
    "payee_account",
    "bank_remark",
    "enabled",
    "sort",
  ],
  list: wireAccounts,
  add: addWireAccount,
  update: updateWireAccount,
});
