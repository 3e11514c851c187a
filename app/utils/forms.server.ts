/**
 * The one pipeline every action reads its POST form through, in this order:
 *
 * 1. body size limit: a body over `FORM_MAX_BYTES` (64 KiB) is refused with 413;
 * 2. CSRF: a missing or wrong token is refused with 403 and the translated "page expired" message;
 * 3. zod: the form's schema (chosen by its `intent` when the route has several forms); a refused
 *    form answers 400 with the field messages;
 * 4. idempotency key: the `idempotency_key` a money or order form carries (made by
 *    `newIdempotencyKey()` when the form was rendered), handed on for the upstream's header.
 *
 * A refusal carries conform's `result` (the posted values, minus `hideFields`, and the messages),
 * so the page re-renders the same form with its errors, with or without JavaScript.
 */
import { CODE } from "@contract/envelope";
import crypto from "node:crypto";
import { data } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import { CODE_RESEND_S } from "@contract/constants";
import { checkCsrf } from "~/utils/csrf.server";
import { env } from "~/utils/env.server";
import { getT } from "~/i18n.server";
import { recordVolatile } from "~/utils/visitor-page-cache.server";

/**
 * A fresh key for a money or order form, sent back by the form as `idempotency_key`: one per
 * rendered form, also in a page kept for other visitors (visitor-page-cache).
 */
export function newIdempotencyKey(): string {
  const key = crypto.randomUUID();
  recordVolatile(key, "key");
  return key;
}

/** Seconds before another verification code may be sent to a recipient (the contract's). */
export const CODE_RESEND_SECONDS = CODE_RESEND_S;

/** Seconds left before another verification code may be sent. */

export function cooldownLeft(
  sentAt: number | undefined | null,
  now = Date.now(),
  total = CODE_RESEND_SECONDS,
): number {
  if (!sentAt || !Number.isFinite(sentAt)) return 0;
  const left = Math.ceil(total - (now - sentAt) / 1000);
  return left > 0 ? Math.min(left, total) : 0;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySchema = z.ZodType<any, any, any>;
/** A schema, or a function choosing it from the posted form (e.g. rules of the posted instrument). */
type SchemaFor = AnySchema | ((formData: FormData) => AnySchema);
type Schemas = Record<string, SchemaFor>;
type OutputOf<S> = S extends (formData: FormData) => infer R
  ? z.output<R & AnySchema>
  : z.output<S & AnySchema>;

interface FormOptions {
  /** Fields never sent back to the page (passwords). */
  hideFields?: string[];
  /** The intent of a form posted without one (the first schema's otherwise). */
  defaultIntent?: string;
  /** Picks the intent from the posted form (default: its `intent` field). */
  intentOf?: (formData: FormData) => string | null;
  /** Rewrites the posted form before the zod parse (e.g. decimal commas to dots). */
  prepare?: (formData: FormData) => FormData;
  /** Largest accepted body in bytes (FORM_MAX_BYTES by default). */
  maxBytes?: number;
}

/** A form that passed every step. */
type AcceptedForm<M extends Schemas> = {
  [K in keyof M & string]: {
    ok: true;
    intent: K;
    value: OutputOf<M[K]>;
    formData: FormData;
    /** The form's `idempotency_key`, or null when the form has none. */
    idempotencyKey: string | null;
    /** conform's answer for this submission (to add the upstream's refusal, say). */
    reply: (options?: { formErrors?: string[] }) => SubmissionResult<string[]>;
  };
}[keyof M & string];

/** A refused form: the status to answer and conform's result to re-render the form with. */
interface RefusedForm {
  ok: false;
  status: 400 | 403 | 413;
  intent: string;
  formData: FormData;
  result: SubmissionResult<string[]>;
}

type FormOutcome<M extends Schemas> = AcceptedForm<M> | RefusedForm;

class BodyTooLarge extends Error {}

/** Reads at most `max` bytes of a body; throws BodyTooLarge beyond. */
async function readLimited(request: Request, max: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > max) throw new BodyTooLarge();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // Not cancelled: cancelling destroys the connection before the 413 is written. The server
      // discards the rest after the answer (app/utils/lingering-close.server.ts).
      reader.releaseLock();
      throw new BodyTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A refusal's result: the posted values (minus hidden fields) and form-level messages. */
function plainRefusal(
  formData: FormData,
  messages: string[],
  hideFields: string[],
): SubmissionResult<string[]> {
  return parseWithZod(formData, { schema: z.object({}).passthrough() }).reply({
    formErrors: messages,
    hideFields,
  });
}

/**
 * Reads a POST form through the pipeline. `schemas` is one zod schema, or one per `intent`
 * ({ login: loginSchema, demo: demoSchema }).
 */
export async function readForm<S extends AnySchema>(
  request: Request,
  schema: S,
  options?: FormOptions,
): Promise<FormOutcome<{ form: S }>>;
export async function readForm<M extends Schemas>(
  request: Request,
  schemas: M,
  options?: FormOptions,
): Promise<FormOutcome<M>>;
export async function readForm(
  request: Request,
  schemas: AnySchema | Schemas,
  options: FormOptions = {},
): Promise<FormOutcome<Schemas>> {
  const single = schemas instanceof z.ZodType;
  const map: Schemas = single ? { form: schemas } : schemas;
  const hideFields = options.hideFields ?? [];
  const max = options.maxBytes ?? env().formMaxBytes;

  let formData = new FormData();
  try {
    const body = await readLimited(request, max);
    const type = request.headers.get("Content-Type") ?? "application/x-www-form-urlencoded";
    formData = await new Response(body as unknown as BodyInit, {
      headers: { "Content-Type": type },
    }).formData();
  } catch (err) {
    if (err instanceof BodyTooLarge) {
      const t = await getT(request, ["common"]);
      return {
        ok: false,
        status: 413,
        intent: "",
        formData,
        result: plainRefusal(formData, [t("common:form_too_large")], hideFields),
      };
    }
    // An unreadable body is an empty form: its CSRF check fails below.
  }

  // One schema: the form's own `intent` field (if any) is the schema's to check.
  const posted = single
    ? "form"
    : options.intentOf
      ? options.intentOf(formData)
      : formData.get("intent");
  const names = Object.keys(map);
  // Own names only: an intent such as "__proto__" is unknown, never the map's prototype.
  const intent =
    typeof posted === "string" && Object.hasOwn(map, posted)
      ? posted
      : posted === null
        ? (options.defaultIntent ?? names[0])
        : null;

  const csrfError = await checkCsrf(request, formData);
  if (csrfError) {
    return {
      ok: false,
      status: 403,
      intent: intent ?? "",
      formData,
      result: plainRefusal(formData, [csrfError], hideFields),
    };
  }
  if (intent === null) {
    const t = await getT(request, ["common"]);
    return {
      ok: false,
      status: 400,
      intent: "",
      formData,
      result: plainRefusal(formData, [t("common:unknown_action")], hideFields),
    };
  }

  const prepared = options.prepare ? options.prepare(formData) : formData;
  const chosen = map[intent];
  const schema = chosen instanceof z.ZodType ? chosen : chosen(formData);
  const submission = parseWithZod(prepared, { schema });
  if (submission.status !== "success") {
    return { ok: false, status: 400, intent, formData, result: submission.reply({ hideFields }) };
  }
  const value = submission.value as Record<string, unknown>;
  const key =
    value && typeof value === "object" && typeof value.idempotency_key === "string"
      ? value.idempotency_key
      : null;
  return {
    ok: true,
    intent,
    value,
    formData,
    idempotencyKey: key,
    reply: (o) => submission.reply({ ...o, hideFields }),
  };
}

/** The answer to a refused form: its status and what the page needs to show the form again. */
export function refused<E extends Record<string, unknown> = Record<never, never>>(
  form: RefusedForm,
  extra?: E,
) {
  return data(
    { ...(extra as E), refusedIntent: form.intent, result: form.result },
    { status: form.status },
  );
}

/**
 * The status of a form the upstream refused by its rules (a wrong password, a closed market): 400,
 * 429 when the upstream's abuse limits refused it, 403 when the operator's role may not do it.
 */
export function refusalStatus(r: { code: number }): 400 | 403 | 429 {
  if (r.code === CODE.FORBIDDEN) return 403;
  return r.code === CODE.RATE_LIMITED ? 429 : 400;
}
