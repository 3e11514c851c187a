/**
 * The money catalogue pages' server side (/operator/channels, /operator/wire-accounts,
 * /operator/draw-currencies): each lists every entry of its kind, hidden ones included, and posts
 * one entry at a time, a new one ("add") or a change of one ("save"). The upstream checks the
 * entry; its refusal is shown at that entry's form with 400 and the posted values kept.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { UpstreamResult } from "~/upstream/client.server";
import type { CatalogFields, Ctx } from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { catalogSchemas } from "~/schemas/operator";
import { getT } from "~/i18n.server";

interface CatalogKind<T extends { id: number }> {
  /** The page's own path (where a saved entry leads back to). */
  path: string;
  /** Every field operators may post when adding an entry. */
  fields: readonly string[];
  /** Fields set when the entry is made and fixed afterwards. */
  fixed?: readonly string[];
  list: (ctx: Ctx) => Promise<UpstreamResult<T[]>>;
  add: (ctx: Ctx, body: CatalogFields) => Promise<UpstreamResult<T>>;
  update: (ctx: Ctx, id: number, body: CatalogFields) => Promise<UpstreamResult<T>>;
}

/** The form's field values as posted (trimmed); empty ones left out of a new entry. */
function posted(formData: FormData, names: readonly string[], dropEmpty: boolean): CatalogFields {
  const out: CatalogFields = {};
  for (const n of names) {
    const v = formData.get(n);
    if (typeof v !== "string") continue;
    const s = v.trim();
    if (dropEmpty && s === "") continue;
    out[n] = s;
  }
  return out;
}

export function catalogRoute<T extends { id: number }>(kind: CatalogKind<T>) {
  const saveFields = kind.fields.filter((f) => !kind.fixed?.includes(f));
  const schemas = catalogSchemas(kind.fields);

  async function loader({ request }: LoaderFunctionArgs) {
    const op = await requireOperator(request);
    const r = await kind.list({ request, op });
    return data(
      { entries: r.ok ? r.data : [], notice: r.ok ? null : r.msg },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  }

  async function action({ request }: ActionFunctionArgs) {
    const op = await requireOperator(request);
    const form = await readForm(request, schemas);
    const isAdd = form.formData.get("intent") === "add";
    const refusedKey = isAdd ? "new" : String(form.formData.get("id") ?? "");
    const values = posted(form.formData, kind.fields, false);
    if (!form.ok) return refused(form, { refusedKey, values });
    const ctx = { request, op };
    const r =
      form.intent === "add"
        ? await kind.add(ctx, posted(form.formData, kind.fields, true))
        : await kind.update(
            ctx,
            Number(form.formData.get("id")),
            posted(form.formData, saveFields, false),
          );
    if (!r.ok)
      return data(
        {
          refusedIntent: form.intent,
          refusedKey,
          values,
          result: form.reply({ formErrors: [r.msg] }),
        },
        { status: refusalStatus(r) },
      );
    const t = await getT(request, ["operator"]);
    // A new entry, or a change of where money goes, waits for a second operator (the toast says
    // so); hiding an entry takes effect at once.
    return operatorRedirect(
      op,
      kind.path,
      actionToast(
        r,
        t(isAdd ? "operator:catalog_added" : "operator:catalog_saved", {
          id: (r.data as { id?: number }).id ?? "",
        }),
      ),
    );
  }

  return { loader, action };
}
