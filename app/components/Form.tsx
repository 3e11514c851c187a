import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "~/translation";
import { useNavigation } from "@remix-run/react";

/** Our message keys look like "auth:input_password"; anything else (an upstream msg) is shown as is. */
const KEY_RE = /^[a-z]+:[a-z0-9_.]+$/;

export function useMessage() {
  const { t } = useTranslation(["common", "auth"]);
  return (msg: string | undefined | null): string => {
    if (!msg) return "";
    return KEY_RE.test(msg) ? t(msg) : msg;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyField = FieldMetadata<any, any, string[]>;

type InputType = "text" | "password" | "email" | "tel" | "search" | "number" | "hidden" | "date";

/** A field's first error, translated (nothing when the field is valid). */
function FieldError({ meta }: { meta: AnyField }) {
  const msg = useMessage();
  const error = meta.errors?.[0];
  if (!error) return null;
  return (
    <p id={meta.errorId} className="field-error" data-error-for={meta.name}>
      {msg(error)}
    </p>
  );
}

export function Field({
  meta,
  label,
  type = "text",
  after,
  ...rest
}: {
  meta: AnyField;
  label: string;
  type?: InputType;
  after?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "defaultValue" | "form">) {
  const { key, ...props } = getInputProps(meta, { type, ariaAttributes: true });
  const error = meta.errors?.[0];
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={meta.id}>{label}</label>
      <div className="field-row">
        <input key={key} {...props} {...rest} />
        {after}
      </div>
      <FieldError meta={meta} />
    </div>
  );
}

export function SelectField({
  meta,
  label,
  options,
}: {
  meta: AnyField;
  label: string;
  options: { value: string; label: string }[];
}) {
  const { key, ...props } = getSelectProps(meta, { ariaAttributes: true });
  const error = meta.errors?.[0];
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={meta.id}>{label}</label>
      <select key={key} {...props}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError meta={meta} />
    </div>
  );
}

/** Errors of the whole form (an upstream refusal, a failed CSRF check ...). */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const msg = useMessage();
  if (!errors || errors.length === 0) return null;
  return (
    <div className="form-errors" role="alert" id={id} data-form-error="">
      {errors.map((e) => (
        <p key={e}>{msg(e)}</p>
      ))}
    </div>
  );
}

export { Hidden } from "./Hidden";

/** Whether this page's own POST form is being submitted, and the `intent` it carries (else null). */
export function usePostIntent(): { busy: boolean; busyIntent: FormDataEntryValue | null } {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  return { busy, busyIntent: busy ? (navigation.formData?.get("intent") ?? null) : null };
}

/**
 * The messages of a refused form (the form pipeline's answer: CSRF, body size, zod), for forms
 * without their own conform state; form-level messages first, then each field's.
 */
export function refusalMessages(actionData: unknown): string[] | undefined {
  if (!actionData || typeof actionData !== "object" || !("refusedIntent" in actionData))
    return undefined;
  const result = (actionData as { result?: { error?: Record<string, string[] | null> | null } })
    .result;
  const error = result?.error;
  if (!error) return undefined;
  const all = [
    ...(error[""] ?? []),
    ...Object.entries(error).flatMap(([k, v]) => (k === "" ? [] : (v ?? []))),
  ];
  return all.length ? [...new Set(all)] : undefined;
}
