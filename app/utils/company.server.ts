/**
 * Company mode on the web (product-spec.md sections 2 and 9): the company a visitor picked on
 * /product is remembered in a cookie for three years; while that company's status is not open, the
 * pages that check it (the home page's loader and /product's choice) send the visitor to its
 * loss_url. Only http(s) addresses are followed; anything else is ignored.
 */
import { rememberedCookie } from "~/utils/remembered-cookie.server";
import { redirect } from "@remix-run/node";
import { COMPANY_STATUS_OPEN } from "@contract/api/company";
import type { Caller } from "~/upstream/client.server";
import { getCompanyStatus } from "~/upstream/company.server";

export const companyCookie = rememberedCookie("tp_company", 3);

/** The remembered company's id, or null. */
async function rememberedCompany(request: Request): Promise<number | null> {
  const v: unknown = await companyCookie.parse(request.headers.get("Cookie"));
  return typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : null;
}

/** An http(s) address as a URL string, else null (javascript:, relative paths ...). */
function safeLossUrl(raw: string): string | null {
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) return null;
  return new URL(raw).toString();
}

/** Where a visitor of company `id` must go instead, or null when the company is open (or unknown). */
export async function lossUrlOf(caller: Caller, id: number): Promise<string | null> {
  const r = await getCompanyStatus(caller, id);
  if (!r.ok || r.data.status === COMPANY_STATUS_OPEN) return null;
  return safeLossUrl(r.data.loss_url);
}

/** Throws the redirect to loss_url when the remembered company is not open. */
export async function companyGate(request: Request, caller: Caller): Promise<void> {
  const id = await rememberedCompany(request);
  if (id === null) return;
  const to = await lossUrlOf(caller, id);
  if (to) throw redirect(to);
}
