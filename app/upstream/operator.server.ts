/**
 * The operator API (contract/api/admin.ts), one typed function per call, for the console. Calls carry
 * the console session's token as `Authorization: Bearer`; a 999 (expired or revoked token) ends the
 * console session and leads to /operator/login, never to the user's sign-in.
 */
import { data } from "@remix-run/node";
import * as admin from "@contract/api/admin";
import * as copy from "@contract/api/copy";
import { pathOf, type EndpointDef } from "@contract/api/endpoint";
import { CODE } from "@contract/envelope";
import { callerFor, send, type Params, type UpstreamResult } from "./client.server";
import { upstreamPool, upstreamTimeoutMs } from "~/utils/env.server";
import { operatorSignedOut, type SignedInOperator } from "~/utils/operator-session.server";

/** Any operator endpoint of the contract (admin.ts and the areas' own files). */
type Def = Pick<EndpointDef, "method" | "path" | "data">;

export async function opCall<T>(
  request: Request,
  op: SignedInOperator,
  def: Def,
  path: string,
  params?: Params,
  opts: { idempotencyKey?: string | null } = {},
): Promise<UpstreamResult<T>> {
  const caller = await callerFor(request);
  // The endpoint's own path filled in; its answer checked as every call's is (`send`).
  const r = await send<T>(caller, { method: def.method, path, data: def.data }, params, {
    token: `Bearer ${op.token}`,
    init: true,
    idempotencyKey: opts.idempotencyKey ?? undefined,
  });
  if (!r.ok && r.code === CODE.SESSION_INVALID)
    throw await operatorSignedOut(request, { type: "error", text: r.msg });
  // The role may not (a forged post; the console never offers it): the console's error page says
  // so with the upstream's translated message, answered 403.
  if (!r.ok && r.code === CODE.FORBIDDEN) throw data({ forbidden: r.msg }, { status: 403 });
  return r;
}

export interface Ctx {
  request: Request;
  op: SignedInOperator;
}

export async function operatorLogin(
  request: Request,
  body: { name: string; password: string; code: string },
) {
  const caller = await callerFor(request);
  return send<admin.OperatorSession>(caller, admin.login, body, { token: null, init: true });
}

export async function operatorLogout(request: Request, token: string) {
  const caller = await callerFor(request);
  return send<null>(caller, admin.logout, {}, { token: `Bearer ${token}`, init: true, soft: true });
}

export const charges = ({ request, op }: Ctx, status: number, page: number) =>
  opCall<admin.AdminPage<admin.AdminCharge>>(request, op, admin.charges, admin.charges.path, {
    status,
    page,
  });

export const approveCharge = ({ request, op }: Ctx, id: number, amount?: string, remark?: string) =>
  opCall<admin.AdminCharge>(request, op, admin.approveCharge, pathOf(admin.approveCharge, { id }), {
    amount: amount || undefined,
    remark: remark || undefined,
  });

export const decideCharge = (
  { request, op }: Ctx,
  how: "reject" | "invalid",
  id: number,
  remark: string,
) => {
  const def = how === "reject" ? admin.rejectCharge : admin.invalidCharge;
  return opCall<admin.AdminCharge>(request, op, def, pathOf(def, { id }), { remark });
};

export const draws = ({ request, op }: Ctx, status: number, page: number) =>
  opCall<admin.AdminPage<admin.AdminDraw>>(request, op, admin.draws, admin.draws.path, {
    status,
    page,
  });

export const approveDraw = ({ request, op }: Ctx, id: number, remark?: string) =>
  opCall<admin.AdminDraw>(request, op, admin.approveDraw, pathOf(admin.approveDraw, { id }), {
    remark: remark || undefined,
  });

export const rejectDraw = ({ request, op }: Ctx, id: number, remark: string) =>
  opCall<admin.AdminDraw>(request, op, admin.rejectDraw, pathOf(admin.rejectDraw, { id }), {
    remark,
  });

export const findUsers = ({ request, op }: Ctx, q: string) =>
  opCall<admin.AdminUser[]>(request, op, admin.users, admin.users.path, { q: q || undefined });

export const userLedger = ({ request, op }: Ctx, uid: string, page: number) =>
  opCall<admin.AdminPage<admin.AdminLedgerRow>>(
    request,
    op,
    admin.userLedger,
    pathOf(admin.userLedger, { uid }),
    { page },
  );

export const adjust = (
  { request, op }: Ctx,
  body: { uid: string; amount: string; remark: string },
  idempotencyKey: string | null,
) =>
  opCall<admin.AuditRow>(request, op, admin.adjustments, admin.adjustments.path, body, {
    idempotencyKey,
  });

/** Files a user's two-factor reset for a second operator (support checked who the user is). */
export const resetTwoFactor = ({ request, op }: Ctx, body: { uid: string; remark: string }) =>
  opCall<admin.PendingApproval>(request, op, admin.resetTwoFactor, admin.resetTwoFactor.path, body);

export const settings = ({ request, op }: Ctx) =>
  opCall<admin.AdminSetting[]>(request, op, admin.settings, admin.settings.path);

export const setSetting = ({ request, op }: Ctx, key: string, value: string) =>
  opCall<admin.AdminSetting>(request, op, admin.setSetting, admin.setSetting.path, { key, value });

export const auditLog = ({ request, op }: Ctx, page: number, actor: string) =>
  opCall<admin.AdminPage<admin.AuditRow>>(request, op, admin.audit, admin.audit.path, {
    page,
    ...(actor ? { actor } : {}),
  });

/** The money catalogue's fields as the console posts them (text; the upstream checks them). */
export type CatalogFields = Record<string, string>;

export const chargeChannels = ({ request, op }: Ctx) =>
  opCall<admin.AdminChargeChannel[]>(request, op, admin.chargeChannels, admin.chargeChannels.path);

export const addChargeChannel = ({ request, op }: Ctx, body: CatalogFields) =>
  opCall<admin.AdminChargeChannel>(
    request,
    op,
    admin.addChargeChannel,
    admin.addChargeChannel.path,
    body,
  );

export const updateChargeChannel = ({ request, op }: Ctx, id: number, body: CatalogFields) =>
  opCall<admin.AdminChargeChannel>(
    request,
    op,
    admin.updateChargeChannel,
    pathOf(admin.updateChargeChannel, { id }),
    body,
  );

export const wireAccounts = ({ request, op }: Ctx) =>
  opCall<admin.AdminWireAccount[]>(request, op, admin.wireAccounts, admin.wireAccounts.path);

export const addWireAccount = ({ request, op }: Ctx, body: CatalogFields) =>
  opCall<admin.AdminWireAccount>(
    request,
    op,
    admin.addWireAccount,
    admin.addWireAccount.path,
    body,
  );

export const updateWireAccount = ({ request, op }: Ctx, id: number, body: CatalogFields) =>
  opCall<admin.AdminWireAccount>(
    request,
    op,
    admin.updateWireAccount,
    pathOf(admin.updateWireAccount, { id }),
    body,
  );

export const drawCurrencies = ({ request, op }: Ctx) =>
  opCall<admin.AdminDrawCurrency[]>(request, op, admin.drawCurrencies, admin.drawCurrencies.path);

export const addDrawCurrency = ({ request, op }: Ctx, body: CatalogFields) =>
  opCall<admin.AdminDrawCurrency>(
    request,
    op,
    admin.addDrawCurrency,
    admin.addDrawCurrency.path,
    body,
  );

export const updateDrawCurrency = ({ request, op }: Ctx, id: number, body: CatalogFields) =>
  opCall<admin.AdminDrawCurrency>(
    request,
    op,
    admin.updateDrawCurrency,
    pathOf(admin.updateDrawCurrency, { id }),
    body,
  );

/**
 * A proof image, fetched with the operator's token: the upstream's answer (status, image type and
 * bytes), or null when the upstream cannot be reached or answers 401 (the console session ends).
 */
export async function uploadImage(
  op: SignedInOperator,
  name: string,
): Promise<{ status: number; type: string | null; body: ArrayBuffer | null }> {
  let res: Response;
  try {
    res = await upstreamPool().fetch(
      (base) => `${base}/admin/api/uploads/${encodeURIComponent(name)}`,
      { headers: { authorization: `Bearer ${op.token}` } },
      { replayable: true, timeoutMs: upstreamTimeoutMs() },
    );
  } catch {
    return { status: 503, type: null, body: null };
  }
  const type = res.headers.get("content-type");
  if (!res.ok || !type?.startsWith("image/")) {
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status === 200 ? 404 : res.status, type: null, body: null };
  }
  return { status: 200, type, body: await res.arrayBuffer() };
}

export const operatorRequests = ({ request, op }: Ctx, status: number, page: number) =>
  opCall<admin.AdminPage<admin.OperatorRequest>>(request, op, admin.requests, admin.requests.path, {
    status,
    page,
  });

export const decideRequest = (
  { request, op }: Ctx,
  intent: "approve" | "reject",
  id: number,
  remark: string,
) => {
  const def = intent === "approve" ? admin.approveRequest : admin.rejectRequest;
  return opCall<admin.DecidedRequest>(request, op, def, pathOf(def, { id }), { remark });
};

/** Copies (newest first): of one user (`uid`) or provider, of one status (0 every one). */
export const adminCopies = (
  { request, op }: Ctx,
  q: { uid: string; providerId: number | null; status: number; page: number },
) =>
  opCall<admin.AdminPage<copy.AdminCopy>>(request, op, copy.adminCopies, copy.adminCopies.path, {
    uid: q.uid || undefined,
    provider_id: q.providerId ?? undefined,
    status: q.status,
    page: q.page,
  });

export const stopCopy = ({ request, op }: Ctx, id: number, remark: string) =>
  opCall<copy.AdminCopy>(request, op, copy.adminCopyStop, pathOf(copy.adminCopyStop, { id }), {
    remark,
  });

export const adminProviders = ({ request, op }: Ctx) =>
  opCall<copy.AdminProvider[]>(request, op, copy.adminProviders, copy.adminProviders.path);

/** Hides a provider from copiers (true) or shows it again (false), with a remark. */
export const hideProvider = ({ request, op }: Ctx, id: number, hidden: boolean, remark: string) =>
  opCall<copy.AdminProvider>(
    request,
    op,
    copy.adminProviderHide,
    pathOf(copy.adminProviderHide, { id }),
    { remark, hidden: hidden ? 1 : 0 },
  );
