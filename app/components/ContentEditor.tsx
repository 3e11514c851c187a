/**
 * A console editor of news items or announcements: the entries of one page as a table with an
 * edit link each, and the editor of the entry being edited (or a new one) with "Preview" and
 * "Save". The preview is rendered by the server from the sanitised HTML, so it shows exactly what
 * readers will see. Plain forms and links: everything works without JavaScript.
 */
import type { ReactNode } from "react";
import { Form, Link } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useConsoleCan } from "~/utils/console";
import { Pager } from "~/components/Console";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import { LANG_ALL } from "@contract/api/content-rules";
import { LANGS } from "@contract/constants";
import { LANGUAGE_LABEL, isLang } from "~/i18n";

export interface EditorField {
  name: string;
  /** The label, translated. */
  label: string;
  kind: "text" | "textarea" | "select";
  options?: { value: string; label: string }[];
  initial?: string;
  maxLength?: number;
  hint?: string;
}

interface EditorAction {
  values?: Record<string, string>;
  preview?: { title: string; html: string } | null;
}

export function ContentEditor<T extends { id: number }>({
  kind,
  title,
  path,
  d,
  fields,
  columns,
  actionData,
}: {
  kind: string;
  title: string;
  path: string;
  d: {
    page: number;
    pages: number;
    rows: T[];
    notice: string | null;
    edit: "new" | number | null;
    editing: T | null;
  };
  fields: EditorField[];
  /** The table's columns: heading and cell. */
  columns: { label: string; cell: (row: T) => ReactNode }[];
  actionData: unknown;
}) {
  const { t } = useTranslation("content");
  // News and notices are support's work: other roles read the list, with nothing to edit.
  const editable = useConsoleCan()("support");
  const a = (actionData ?? {}) as EditorAction;
  const errors = refusalMessages(actionData);
  const pageQuery = d.page > 1 ? `page=${d.page}&` : "";
  const valueOf = (f: EditorField) => {
    if (a.values && f.name in a.values) return a.values[f.name];
    const current = d.editing ? (d.editing as Record<string, unknown>)[f.name] : undefined;
    return current === undefined || current === null ? (f.initial ?? "") : String(current);
  };
  return (
    <section aria-labelledby={`${kind}-title`}>
      <h1 id={`${kind}-title`}>{title}</h1>
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {editable ? (
        <p>
          <Link to={`${path}?${pageQuery}edit=new`} className="btn btn-small btn-primary">
            {t("editor_new")}
          </Link>
        </p>
      ) : null}
      <div className="card content-table-wrap">
        <table className="content-table" data-testid={`${kind}-table`}>
          <thead>
            <tr>
              <th scope="col">{t("col_id")}</th>
              {columns.map((c) => (
                <th scope="col" key={c.label}>
                  {c.label}
                </th>
              ))}
              {editable ? (
                <th scope="col">
                  <span className="sr-only">{t("editor_edit")}</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {d.rows.map((row) => (
              <tr key={row.id} data-testid={`${kind}-row`} data-id={row.id}>
                <td>{row.id}</td>
                {columns.map((c) => (
                  <td key={c.label}>{c.cell(row)}</td>
                ))}
                {editable ? (
                  <td>
                    <Link
                      to={`${path}?${pageQuery}edit=${row.id}`}
                      aria-label={`${t("editor_edit")} ${row.id}`}
                    >
                      {t("editor_edit")}
                    </Link>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={d.page} pages={d.pages} query="" />
      {d.edit !== null && editable ? (
        <div className="card content-editor" data-testid={`${kind}-editor`}>
          <h2 id={`${kind}-editor-title`}>
            {d.edit === "new" ? t("editor_new") : t("editor_title", { id: d.edit })}
          </h2>
          <Form method="post" className="form" aria-labelledby={`${kind}-editor-title`}>
            <AuthenticityTokenInput />
            {d.edit !== "new" ? <Hidden name="id" value={d.edit} /> : null}
            <FormErrors errors={errors} />
            {fields.map((f) => {
              const id = `${kind}-field-${f.name}`;
              const value = valueOf(f);
              return (
                <div className="field" key={f.name}>
                  <label htmlFor={id}>{f.label}</label>
                  {f.kind === "select" ? (
                    <select id={id} name={f.name} defaultValue={value} key={value}>
                      {(f.options ?? []).map((o) => (
                        <option key={o.value} value={o.value}>
                          {o.label}
                        </option>
                      ))}
                    </select>
                  ) : f.kind === "textarea" ? (
                    <textarea id={id} name={f.name} defaultValue={value} key={value} rows={12} />
                  ) : (
                    <input
                      id={id}
                      name={f.name}
                      defaultValue={value}
                      key={value}
                      maxLength={f.maxLength ?? 200}
                      autoComplete="off"
                    />
                  )}
                  {f.hint ? <span className="hint muted">{f.hint}</span> : null}
                </div>
              );
            })}
            <div className="form-actions">
              <button type="submit" name="intent" value="preview" className="btn btn-small">
                {t("editor_preview")}
              </button>{" "}
              <button
                type="submit"
                name="intent"
                value="save"
                className="btn btn-small btn-primary"
              >
                {t("editor_save")}
              </button>
            </div>
          </Form>
          {a.preview ? (
            <article
              className="card article content-preview"
              aria-labelledby={`${kind}-preview-title`}
              data-testid={`${kind}-preview`}
            >
              <p className="muted article-meta" id={`${kind}-preview-title`}>
                {t("editor_preview_title")}
              </p>
              <h3 className="article-title">{a.preview.title}</h3>
              <div
                className="article-body"
                data-testid="preview-body"
                dangerouslySetInnerHTML={{ __html: a.preview.html }}
              />
            </article>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** An entry's language as shown in the console: the language's own name, or "every language". */
export function langLabel(code: string, all: string): string {
  return code === LANG_ALL ? all : isLang(code) ? LANGUAGE_LABEL[code] : code;
}

export function useLangOptions() {
  const { t } = useTranslation("content");
  return [
    { value: LANG_ALL, label: t("lang_all") },
    ...LANGS.map((l) => ({ value: l, label: LANGUAGE_LABEL[l] })),
  ];
}

export function usePublishedOptions() {
  const { t } = useTranslation("content");
  return [
    { value: "1", label: t("published_1") },
    { value: "0", label: t("published_0") },
  ];
}
