/**
 * Settings changed as an operator changes them: through the upstream's operator API with the
 * OPERATOR_TOKEN playwright.config.ts gives the server (the value is checked like any operator's).
 */
export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789abcdef";

export async function operatorSetting(key: string, value: string): Promise<void> {
  await operatorPost("/settings", { key, value });
}

/** Books a signed adjustment on a user (by uid), as an operator does through the operator API. */
export async function operatorAdjust(uid: string, amount: string, remark: string): Promise<void> {
  await operatorPost("/adjustments", { uid, amount, remark });
}

/** An operator's POST to the upstream's operator API (/admin/api/...); fails unless accepted. */
export async function operatorPost(
  path: string,
  body: Record<string, string> = {},
): Promise<unknown> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}/admin/api${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body).toString(),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: unknown };
  if (answer.code !== 1) throw new Error(`${path} refused: ${answer.msg}`);
  return answer.data;
}
