/** Pieces of the operator console's pages: status tabs, pager, a remark form, a list of items. */
import { Form, Link } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { ReactNode } from "react";
import { Pager as PagerLinks } from "./Pager";
import { FormErrors, Hidden, refusalMessages } from "./Form";

/** Links to a queue's status tabs (plain links: they work without JavaScript). */
export function StatusTabs({
  tabs,
  current,
  label,
}: {
  tabs: readonly (readonly [number, string])[];
  current: number;
  label: string;
}) {
  const { t } = useTranslation("operator");
  return (
    <nav className="segmented console-tabs" aria-label={label}>
      {tabs.map(([status, key]) => (
        <Link
          key={status}
          to={`?status=${status}`}
          className={status === current ? "seg active" : "seg"}
          aria-current={status === current ? "page" : undefined}
        >
          {t(key)}
        </Link>
      ))}
    </nav>
  );
}

/** Previous / next page links keeping the other query parameters. */
export function Pager({ page, pages, query }: { page: number; pages: number; query: string }) {
  const { t } = useTranslation("operator");
  return (
    <PagerLinks
      page={page}
      pages={pages}
      href={(p) => `?${query ? `${query}&` : ""}page=${p}`}
      labels={{
        nav: t("pages"),
        prev: t("previous"),
        next: t("next"),
        pageOf: t("page_of", { page, pages }),
      }}
    />
  );
}

/**
 * An approve form's optional note, for the second operator who reads it when the approval needs
 * one (a large deposit or withdrawal, money controls).
 */
export function ApprovalNoteField({ id }: { id: number }) {
  const { t } = useTranslation("operator");
  const inputId = `approve-${id}-remark`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{t("approval_note")}</label>
      <input id={inputId} name="remark" maxLength={500} autoComplete="off" />
    </div>
  );
}

/** A decision with a required remark (reject, invalid). */
export function RemarkForm({
  intent,
  id,
  button,
  errors,
  danger,
}: {
  intent: string;
  id: number;
  button: string;
  errors?: string[];
  danger?: boolean;
}) {
  const { t } = useTranslation("operator");
  const inputId = `${intent}-${id}-remark`;
  return (
    <Form method="post" className="form console-action" data-testid={`${intent}-form`}>
      <AuthenticityTokenInput />
      <Hidden name="intent" value={intent} />
      <Hidden name="id" value={id} />
      <FormErrors errors={errors} />
      <div className="field">
        <label htmlFor={inputId}>{t("remark")}</label>
        <input id={inputId} name="remark" required maxLength={500} autoComplete="off" />
      </div>
      <button type="submit" className={danger ? "btn btn-danger" : "btn btn-outline"}>
        {button}
      </button>
    </Form>
  );
}

/**
 * Where a queue's refused decision shows: at the form of that item and intent, or above the list
 * when the item is no longer on the page (decided meanwhile by another operator).
 */
export function useQueueRefusals(actionData: unknown, items: readonly { id: number }[]) {
  const a = actionData as { refusedIntent?: string; refusedId?: number } | undefined;
  const refusedAt =
    a && typeof a === "object" && "refusedIntent" in a
      ? { intent: a.refusedIntent, id: a.refusedId ?? 0 }
      : null;
  const errorsFor = (intent: string, id: number) =>
    refusedAt && refusedAt.intent === intent && refusedAt.id === id
      ? refusalMessages(actionData)
      : undefined;
  const orphan =
    refusedAt && !items.some((c) => c.id === refusedAt.id)
      ? refusalMessages(actionData)
      : undefined;
  return { errorsFor, orphan };
}

/**
 * A console list screen's body: the last decision's notice, then the items as cards (each drawn by
 * `children`, an <li>) or the empty text. The list is `testId`, the empty text `${testId}-empty`.
 */
export function ConsoleList<T>({
  notice,
  items,
  empty,
  testId,
  children,
}: {
  notice?: string | null;
  items: readonly T[];
  empty: string;
  testId: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      {notice ? (
        <p className="card notice" role="status">
          {notice}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="card empty" data-testid={`${testId}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className="console-list" role="list" data-testid={testId}>
          {items.map(children)}
        </ul>
      )}
    </>
  );
}
