/**
 * The verification screen's server side (/mine/auth): the account's state (user_real/center), and
 * the submission: the multipart form's two images are each sent to the upstream's image_upload
 * with the user's token, then user_real/real_name is called with the stored names. Every refusal
 * (CSRF, schema, a missing or too large image, the upstream's) is answered on the form with 400 or
 * 413 before anything is stored where it can be: the state, both sizes and both files' first bytes
 * are checked before the first image is sent.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { REVIEW_STATUS } from "@contract/enums";
import { UPLOAD_MAX_BYTES } from "@contract/constants";
import { callerFor } from "~/upstream/client.server";
import { imageUpload } from "~/upstream/finance.server";
import { realName, realNameCenter } from "~/upstream/verify.server";
import type { RealNameCenter } from "@contract/api/verify";
import { requireSignedIn } from "~/utils/session.server";
import { readForm, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { realNameSchema, VERIFY_MSG } from "~/schemas/verify";

/** Largest verification form read: two of the upstream's largest images and the text fields. */
const VERIFY_FORM_MAX_BYTES = 2 * UPLOAD_MAX_BYTES + 64 * 1024;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const r = await realNameCenter(caller);
  // A demo account (or another refusal): the upstream's translated reason instead of the form.
  if (!r.ok) return { notice: r.msg as string | null, center: null as RealNameCenter | null };
  return { notice: null as string | null, center: r.data };
}

/** The account may submit: nothing submitted yet, or the last submission was rejected. */
const maySubmit = (c: RealNameCenter | null) =>
  c !== null && c.review_status === REVIEW_STATUS.NOT_SUBMITTED;

/** The first bytes of a JPEG, PNG or WebP file (the formats image_upload accepts). */
export function looksLikeImage(head: Uint8Array): boolean {
  const at = (i: number, bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
  return (
    at(0, [0xff, 0xd8, 0xff]) ||
    at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (at(0, ascii("RIFF")) && at(8, ascii("WEBP")))
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, realNameSchema, { maxBytes: VERIFY_FORM_MAX_BYTES });
  if (!form.ok)
    return data({ refusedIntent: form.intent, result: form.result }, { status: form.status });
  const refuse = (msg: string, status = 400) =>
    data({ refusedIntent: form.intent, result: form.reply({ formErrors: [msg] }) }, { status });
  const caller = await callerFor(request);
  const center = await realNameCenter(caller);
  if (!center.ok) return refuse(center.msg, refusalStatus(center));
  if (!maySubmit(center.data)) return refuse(VERIFY_MSG.state);

  const front = form.formData.get("front");
  const back = form.formData.get("back");
  if (!(front instanceof File) || front.size === 0) return refuse(VERIFY_MSG.front);
  if (!(back instanceof File) || back.size === 0) return refuse(VERIFY_MSG.back);
  // Both sizes before either image is sent: a refusal stores neither.
  for (const f of [front, back]) {
    if (f.size > UPLOAD_MAX_BYTES) {
      const up = await imageUpload(caller, f);
      return refuse(up.ok ? VERIFY_MSG.front : up.msg, 413);
    }
  }
  // Both recognised as images before either is sent: a non-image refuses the form storing neither
  // (the upstream still decodes each one and has the last word).
  for (const [f, msg] of [
    [front, VERIFY_MSG.frontNotImage],
    [back, VERIFY_MSG.backNotImage],
  ] as const) {
    if (!looksLikeImage(new Uint8Array(await f.slice(0, 16).arrayBuffer()))) return refuse(msg);
  }
  const names: string[] = [];
  for (const f of [front, back]) {
    const up = await imageUpload(caller, f);
    if (!up.ok) return refuse(up.msg, refusalStatus(up));
    names.push(up.data.name);
  }
  const v = form.value;
  const r = await realName(caller, {
    name: v.name,
    card_id: v.card_id,
    front_pic: names[0],
    reverse_pic: names[1],
  });
  if (!r.ok) return refuse(r.msg, refusalStatus(r));
  return redirectWithToast(request, "/mine/auth", { type: "success", text: r.msg });
}
