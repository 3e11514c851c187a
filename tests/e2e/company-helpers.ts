/** Companies and feedback as an operator keeps them, through the upstream's operator API. */
import { E2E_OPERATOR_TOKEN, operatorPost } from "./operator";
import { UPSTREAM_URL } from "./fixtures";

export interface E2ECompany {
  id: number;
  name: string;
  status: number;
  loss_url: string;
}

/** Adds a company (a name unique to the test) and returns it. */
export async function addCompany(fields: Record<string, string>): Promise<E2ECompany> {
  return (await operatorPost("/companies", fields)) as E2ECompany;
}

/** Changes a company's fields. */
export async function updateCompany(id: number, fields: Record<string, string>): Promise<void> {
  await operatorPost(`/companies/${id}`, fields);
}

/** A public setting's stored value. */
export async function publicSetting(key: string): Promise<string | null> {
  const res = await fetch(`${UPSTREAM_URL}/api/default/setting?key=${encodeURIComponent(key)}`);
  return ((await res.json()) as { data: string | null }).data;
}

/** The newest page of the feedback inbox. */
export async function feedbackInbox(): Promise<{ id: number; message: string; handled: number }[]> {
  const res = await fetch(`${UPSTREAM_URL}/admin/api/feedback`, {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
  });
  return ((await res.json()) as { data: { data: [] } }).data.data;
}
