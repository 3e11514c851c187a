/**
 * The deposit screen's server side (/mine/charge?type=0|1): the coin channels (with the chosen
 * one's address as a QR code) or the bank wire accounts, the deposit bounds, one page of the
 * account's deposits of the tab's type, and the deposit itself: the multipart form's proof image is
 * sent to the upstream's image_upload, then the deposit is declared with the stored image's name.
 *
 * `submitCharge` is the one flow behind both the page's action (a plain form post, without
 * JavaScript too) and /mine/charge/upload (the same form posted by XMLHttpRequest, for the upload's
 * progress), which answers the same outcome as JSON.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { qrSvg } from "~/utils/qr.server";
import { CHANNEL_TYPE } from "@contract/enums";
import { PAGE_SIZE, UPLOAD_MAX_BYTES } from "@contract/constants";
import { callerFor } from "~/upstream/client.server";
import {
  imageUpload,
  quickChargeInfo,
  quickChargeSubmit,
  quickList,
  wireInfo,
  wireSubmit,
} from "~/upstream/finance.server";
import type { ChargeChannel, WireAccount } from "@contract/api/finance";
import { requireSignedIn } from "~/utils/session.server";
import { newIdempotencyKey, readForm, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { getT } from "~/i18n.server";
import { formatBalance } from "~/utils/format";
import { coinCount } from "~/utils/charge";
import { bankChargeSchema, coinChargeSchema } from "~/schemas/charge";

/** Largest deposit form read: the upstream's largest image and room for the other fields. */
const CHARGE_FORM_MAX_BYTES = UPLOAD_MAX_BYTES + 64 * 1024;

type Tab = (typeof CHANNEL_TYPE)[keyof typeof CHANNEL_TYPE];

/** A whole number from 1 in the query (anything else is null). */
function positiveInt(raw: string | null): number | null {
  if (raw === null || !/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 ? n : null;
}

function tabOf(url: URL): Tab {
  return url.searchParams.get("type") === String(CHANNEL_TYPE.BANK)
    ? CHANNEL_TYPE.BANK
    : CHANNEL_TYPE.COIN;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const url = new URL(request.url);
  const type = tabOf(url);
  const page = positiveInt(url.searchParams.get("page")) ?? 1;
  const empty = {
    lang: caller.lang,
    type,
    page,
    pages: 0,
    records: [] as ChargeRow[],
    channels: [] as ChargeChannel[],
    channel: null as ChargeChannel | null,
    qr: null as string | null,
    wires: [] as WireAccount[],
    wire: null as WireAccount | null,
    min: 0,
    max: 0,
    idempotencyKey: "",
  };
  // The coin channels carry the deposit bounds, which the bank tab shows too.
  const [info, wires, list] = await Promise.all([
    quickChargeInfo(caller),
    type === CHANNEL_TYPE.BANK ? wireInfo(caller) : Promise.resolve(null),
    quickList(caller, type, page),
  ]);
  // A demo account (or another refusal): the upstream's translated reason instead of the forms.
  const refusal = [info, wires, list].find((r) => r && !r.ok);
  if (refusal && !refusal.ok) return { ...empty, notice: refusal.msg as string | null };

  const records = list.ok ? list.data.data.map(rowOf) : [];
  const pages = list.ok ? Math.max(1, Math.ceil(list.data.total / PAGE_SIZE)) : 1;
  const base = { ...empty, notice: null as string | null, records, pages };
  base.idempotencyKey = newIdempotencyKey();
  const bounds = info.ok ? { min: info.data.min, max: info.data.max } : {};
  if (type === CHANNEL_TYPE.COIN && info.ok) {
    const chosen = positiveInt(url.searchParams.get("charge_id"));
    const channel =
      info.data.channels.find((c) => c.id === chosen) ?? info.data.channels[0] ?? null;
    return {
      ...base,
      channels: info.data.channels,
      channel,
      qr: channel ? await qrSvg(channel.address) : null,
      ...bounds,
    };
  }
  if (wires?.ok) {
    const chosen = positiveInt(url.searchParams.get("wire_id"));
    const wire = wires.data.find((w) => w.id === chosen) ?? wires.data[0] ?? null;
    return { ...base, wires: wires.data, wire, ...bounds };
  }
  return base;
}

interface ChargeRow {
  id: number;
  number: number;
  credited: number | null;
  currency: string;
  status: number;
  statusName: string;
  remark: string | null;
  at: string;
}

function rowOf(r: {
  id: number;
  number: number;
  credited: number | null;
  currency_code: string;
  status: number;
  status_name: string;
  remark: string | null;
  created_at: string;
}): ChargeRow {
  return {
    id: r.id,
    number: r.number,
    credited: r.credited,
    currency: r.currency_code,
    status: r.status,
    statusName: r.status_name,
    remark: r.remark,
    at: r.created_at,
  };
}

/** What a deposit form post came to: a declared deposit, or a refusal to show on the form. */
type ChargeOutcome =
  | { ok: true; location: string; message: string }
  | {
      ok: false;
      status: number;
      payload: { refusedIntent: string; result: unknown; coins: string | null };
    };

/** Reads the posted deposit form, uploads its proof and declares the deposit (see the file's note). */
export async function submitCharge(request: Request): Promise<ChargeOutcome> {
  await requireSignedIn(request);
  const form = await readForm(
    request,
    { coin: coinChargeSchema, bank: bankChargeSchema },
    { maxBytes: CHARGE_FORM_MAX_BYTES },
  );
  if (!form.ok)
    return {
      ok: false,
      status: form.status,
      payload: { refusedIntent: form.intent, result: form.result, coins: null },
    };
  const caller = await callerFor(request);
  const t = await getT(request, ["charge"]);
  const v = form.value;
  let coins: string | null = null;
  const refuse = (msg: string, status = 400): ChargeOutcome => ({
    ok: false,
    status,
    payload: { refusedIntent: form.intent, result: form.reply({ formErrors: [msg] }), coins },
  });

  // The destination and the bounds, checked before the image is stored.
  const info = await quickChargeInfo(caller);
  if (!info.ok) return refuse(info.msg, refusalStatus(info));
  let location: string;
  if (v.intent === "coin") {
    const channel = info.data.channels.find((c) => c.id === v.charge_id);
    if (!channel) return refuse(t("charge:errors.no_channel"));
    coins = coinCount(v.number, channel.usd_price);
    location = `/mine/charge?type=${CHANNEL_TYPE.COIN}&charge_id=${channel.id}`;
  } else {
    const wires = await wireInfo(caller);
    if (!wires.ok) return refuse(wires.msg, refusalStatus(wires));
    if (!wires.data.some((w) => w.id === v.wire_id)) return refuse(t("charge:no_pay_way"));
    location = `/mine/charge?type=${CHANNEL_TYPE.BANK}&wire_id=${v.wire_id}`;
  }
  const amount = Number(v.number);
  if (amount < info.data.min)
    return refuse(t("charge:errors.below_min", { min: formatBalance(info.data.min, caller.lang) }));
  if (amount > info.data.max)
    return refuse(t("charge:errors.above_max", { max: formatBalance(info.data.max, caller.lang) }));

  const file = form.formData.get("proof");
  if (!(file instanceof File) || file.size === 0) return refuse(t("charge:errors.proof"));
  const upload = await imageUpload(caller, file);
  if (!upload.ok)
    return refuse(upload.msg, file.size > UPLOAD_MAX_BYTES ? 413 : refusalStatus(upload));

  const r =
    v.intent === "coin"
      ? await quickChargeSubmit(
          caller,
          {
            number: v.number,
            proofImg: upload.data.name,
            address: v.address,
            charge_id: v.charge_id,
          },
          form.idempotencyKey,
        )
      : await wireSubmit(
          caller,
          { number: v.number, proofImg: upload.data.name, wire_id: v.wire_id },
          form.idempotencyKey,
        );
  if (!r.ok) return refuse(r.msg, refusalStatus(r));
  return { ok: true, location, message: r.msg };
}

export async function action({ request }: ActionFunctionArgs) {
  const out = await submitCharge(request);
  if (out.ok)
    return redirectWithToast(request, out.location, { type: "success", text: out.message });
  return data(out.payload, { status: out.status });
}
