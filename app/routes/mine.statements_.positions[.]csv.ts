/** GET /mine/statements/positions.csv?from=&to=: every position closed in the statement, as CSV. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { POSITIONS, statementCsv } from "~/utils/statement-csv.server";

export function loader({ request }: LoaderFunctionArgs) {
  return statementCsv(request, POSITIONS);
}
