/**
 * Companies and feedback (contract/api/company.ts, upstream/API.md "Companies and feedback"): one
 * typed function per call; the operator ones carry the console session's token.
 */
import * as companyApi from "@contract/api/company";
import type { AdminPage } from "@contract/api/admin";
import { pathOf } from "@contract/api/endpoint";
import { isOn } from "@contract/api/settings";
import { send, type Caller, type UpstreamResult } from "./client.server";
import { opCall, type CatalogFields, type Ctx } from "./operator.server";
import { setting } from "./settings.server";

import type { AdminCompany, AdminFeedback, Company, CompanyStatus } from "@contract/api/company";

/** Whether /product searches companies (public setting is_main). */
export async function companyMode(c: Caller): Promise<boolean> {
  const r = await setting(c, companyApi.COMPANY_MODE_KEY);
  return r.ok && isOn(r.data);
}

/** The complaint e-mail shown with the company search ("" when unset). */
export async function complaintEmail(c: Caller): Promise<string> {
  const r = await setting(c, companyApi.COMPLAINT_EMAIL_KEY);
  return r.ok && typeof r.data === "string" ? r.data : "";
}

export function getCompany(c: Caller, name: string): Promise<UpstreamResult<Company[]>> {
  return send<Company[]>(c, companyApi.getCompany, { name });
}

export function getCompanyStatus(c: Caller, id: number): Promise<UpstreamResult<CompanyStatus>> {
  return send<CompanyStatus>(c, companyApi.getCompanyStatus, { id });
}

export function submitFeedback(
  c: Caller,
  body: { message: string; contact?: string },
): Promise<UpstreamResult<{ id: number }>> {
  return send<{ id: number }>(c, companyApi.submitFeedback, body);
}

export const companies = ({ request, op }: Ctx) =>
  opCall<AdminCompany[]>(request, op, companyApi.companies, companyApi.companies.path);

export const addCompany = ({ request, op }: Ctx, body: CatalogFields) =>
  opCall<AdminCompany>(request, op, companyApi.addCompany, companyApi.addCompany.path, body);

export const updateCompany = ({ request, op }: Ctx, id: number, body: CatalogFields) =>
  opCall<AdminCompany>(
    request,
    op,
    companyApi.updateCompany,
    pathOf(companyApi.updateCompany, { id }),
    body,
  );

export const feedbackInbox = ({ request, op }: Ctx, page: number) =>
  opCall<AdminPage<AdminFeedback>>(
    request,
    op,
    companyApi.feedbackInbox,
    companyApi.feedbackInbox.path,
    { page },
  );

export const handleFeedback = ({ request, op }: Ctx, id: number) =>
  opCall<AdminFeedback>(
    request,
    op,
    companyApi.handleFeedback,
    pathOf(companyApi.handleFeedback, { id }),
  );
