/**
 * One money catalogue page of the operator console: every entry (hidden ones marked) as its own
 * form with a save button, and a form to add one. Plain forms: they work without JavaScript. An
 * upstream refusal is shown at the form it came from, with the values that were posted. A role
 * without the page's permission sees the entries as text, with no form.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { Permission } from "@contract/operators";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import { useConsoleCan } from "~/utils/console";

interface CatalogField {
  name: string;
  /** Key of the label in the operator namespace. */
  label: string;
  /** A select of these values (labels are operator keys); otherwise a text input. */
  options?: { value: string; label: string }[];
  /** Set when the entry is made; shown but not editable afterwards. */
  fixed?: boolean;
  /** Value of the add form's field. */
  initial?: string;
  inputMode?: "decimal" | "numeric";
}

interface Refusal {
  refusedKey?: string;
  values?: Record<string, string>;
}

export function CatalogEditor<T extends { id: number; enabled: number }>({
  kind,
  title,
  notice,
  entries,
  fields,
  actionData,
  summary,
  need,
}: {
  /** Prefix of ids and test ids (channel, wire, draw). */
  kind: string;
  title: string;
  notice: string | null;
  entries: T[];
  fields: CatalogField[];
  actionData: unknown;
  /** The entry's name in its heading. */
  summary: (entry: T) => string;
  /** The permission that changing the catalogue needs. */
  need: Permission;
}) {
  const { t } = useTranslation("operator");
  const editable = useConsoleCan()(need);
  const refusal = (actionData ?? {}) as Refusal;
  const errorsFor = (key: string) =>
    refusal.refusedKey === key ? refusalMessages(actionData) : undefined;
  const valueOf = (key: string, name: string, fallback: string) =>
    refusal.refusedKey === key && refusal.values && name in refusal.values
      ? refusal.values[name]
      : fallback;

  const inputs = (key: string, entry: T | null) =>
    fields.map((f) => {
      const id = `${kind}-${key}-${f.name}`;
      const current = entry ? String((entry as Record<string, unknown>)[f.name] ?? "") : null;
      if (entry && (f.fixed || !editable)) {
        const shown = f.options?.find((o) => o.value === current)?.label;
        return (
          <div className="field" key={f.name}>
            <span className="field-label">{t(f.label)}</span>
            <span data-field={f.name}>{shown ? t(shown) : current}</span>
          </div>
        );
      }
      const value = valueOf(key, f.name, current ?? f.initial ?? "");
      return (
        <div className="field" key={f.name}>
          <label htmlFor={id}>{t(f.label)}</label>
          {f.options ? (
            <select id={id} name={f.name} defaultValue={value}>
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {t(o.label)}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={id}
              name={f.name}
              defaultValue={value}
              maxLength={200}
              autoComplete="off"
              inputMode={f.inputMode}
            />
          )}
        </div>
      );
    });

  return (
    <section aria-labelledby={`${kind}-title`}>
      <h1 id={`${kind}-title`}>{title}</h1>
      {notice ? (
        <p className="card notice" role="status">
          {notice}
        </p>
      ) : null}
      <ul className="console-list console-grid" role="list" data-testid={`${kind}-entries`}>
        {entries.map((e) => {
          const key = String(e.id);
          return (
            <li
              key={key}
              className="card"
              data-testid="catalog-entry"
              data-id={e.id}
              data-enabled={e.enabled}
            >
              <h2 className="console-entry-title" id={`${kind}-${key}-title`}>
                {t("id")} {e.id} · {summary(e)}{" "}
                {e.enabled ? null : (
                  <span className="badge closed" data-testid="hidden-mark">
                    {t("hidden_mark")}
                  </span>
                )}
              </h2>
              {editable ? (
                <Form
                  method="post"
                  className="form console-setting"
                  aria-labelledby={`${kind}-${key}-title`}
                >
                  <AuthenticityTokenInput />
                  <Hidden name="intent" value="save" />
                  <Hidden name="id" value={e.id} />
                  <FormErrors errors={errorsFor(key)} />
                  {inputs(key, e)}
                  <button type="submit" className="btn btn-small btn-primary">
                    {t("save")}
                  </button>
                </Form>
              ) : (
                <div className="form console-setting">{inputs(key, e)}</div>
              )}
            </li>
          );
        })}
      </ul>
      {editable ? (
        <div className="card" data-testid={`${kind}-add`}>
          <h2 id={`${kind}-new-title`}>{t("catalog_add_title")}</h2>
          <Form
            method="post"
            className="form console-setting"
            aria-labelledby={`${kind}-new-title`}
          >
            <AuthenticityTokenInput />
            <Hidden name="intent" value="add" />
            <FormErrors errors={errorsFor("new")} />
            {inputs("new", null)}
            <button type="submit" className="btn btn-small btn-primary">
              {t("catalog_add")}
            </button>
          </Form>
        </div>
      ) : null}
    </section>
  );
}

/** The enabled field's choices: shown to users or hidden. */
export const ENABLED_OPTIONS = [
  { value: "1", label: "enabled_1" },
  { value: "0", label: "enabled_0" },
];
