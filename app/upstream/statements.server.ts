/** Statement and own statistics calls of the upstream (upstream/API.md "Statements", "Statistics"). */
import * as api from "@contract/api/statements";
import type {
  OwnStats,
  Statement,
  StatementMail,
  StatementPositionPage,
  StatementRowPage,
} from "@contract/api/statements";
import { type Caller, type UpstreamResult, send } from "./client.server";

/** A statement's range: days YYYY-MM-DD (UTC), both included. */
export interface DayRange {
  from: string;
  to: string;
}

export function statement(c: Caller, r: DayRange): Promise<UpstreamResult<Statement>> {
  return send<Statement>(c, api.statement, { ...r });
}

/** A page of the statement's ledger rows, oldest first (`size` rows, PAGE_SIZE by default). */
export function statementLedger(
  c: Caller,
  r: DayRange,
  page: number,
  size?: number,
): Promise<UpstreamResult<StatementRowPage>> {
  return send<StatementRowPage>(c, api.statementLedger, { ...r, page, size });
}

/** A page of the positions closed in the statement's range, oldest first. */
export function statementPositions(
  c: Caller,
  r: DayRange,
  page: number,
  size?: number,
): Promise<UpstreamResult<StatementPositionPage>> {
  return send<StatementPositionPage>(c, api.statementPositions, { ...r, page, size });
}

export function statementMail(c: Caller): Promise<UpstreamResult<StatementMail>> {
  return send<StatementMail>(c, api.statementMail, {});
}

/** Asks for the monthly statement e-mail, or stops it. */
export function statementMailSave(
  c: Caller,
  monthly: boolean,
): Promise<UpstreamResult<StatementMail>> {
  return send<StatementMail>(c, api.statementMailSave, monthly ? { monthly: "1" } : {});
}

export function ownStats(c: Caller): Promise<UpstreamResult<OwnStats>> {
  return send<OwnStats>(c, api.ownStats, {});
}
