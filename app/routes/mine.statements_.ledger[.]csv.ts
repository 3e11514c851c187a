/** GET /mine/statements/ledger.csv?from=&to=: every ledger row of the statement, as CSV. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { LEDGER, statementCsv } from "~/utils/statement-csv.server";

export function loader({ request }: LoaderFunctionArgs) {
  return statementCsv(request, LEDGER);
}
