/**
 * /mine/statements/print's server side: the statement of the range asked for with EVERY closed
 * position and ledger row (read from the upstream page after page), for printing or saving as
 * PDF. A refused range answers 400 with the fields' messages; a demo account the upstream's reason.
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import type { StatementPosition, StatementRow } from "@contract/api/statements";
import { callerFor } from "~/upstream/client.server";
import { statement, statementLedger, statementPositions } from "~/upstream/statements.server";
import { requireSignedIn } from "~/utils/session.server";
import { everyPage, readRange } from "~/utils/statements.server";

async function all<T>(pages: AsyncGenerator<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const items of pages) out.push(...items);
  return out;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request);
  const caller = await callerFor(request);
  const read = readRange(new URL(request.url), Date.now());
  const account = { uid: user.uid, name: user.email ?? user.mobile ?? "" };
  const generated = new Date().toISOString().slice(0, 19).replace("T", " ");
  if (!read.ok)
    return data(
      {
        lang: caller.lang,
        account,
        generated,
        errors: read.errors,
        statement: null,
        notice: null,
        positions: [] as StatementPosition[],
        rows: [] as StatementRow[],
      },
      { status: 400 },
    );
  const range = read.range;
  const sum = await statement(caller, range);
  if (!sum.ok)
    return {
      lang: caller.lang,
      account,
      generated,
      errors: {},
      statement: null,
      notice: sum.msg,
      positions: [] as StatementPosition[],
      rows: [] as StatementRow[],
    };
  const [positions, rows] = await Promise.all([
    all(everyPage((page, size) => statementPositions(caller, range, page, size))),
    all(everyPage((page, size) => statementLedger(caller, range, page, size))),
  ]);
  return {
    lang: caller.lang,
    account,
    generated,
    errors: {},
    statement: sum.data,
    notice: null,
    positions,
    rows,
  };
}
