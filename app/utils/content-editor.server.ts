/**
 * The console's news and announcement editors (/operator/news, /operator/notices): a paged list
 * and, with ?edit=ID or ?edit=new, the editor of one entry. "Preview" shows the entry as readers
 * will see it, after the same sanitiser the upstream applies when it stores it, and stores
 * nothing; "Save" sends it to the upstream, whose refusal is shown on the form with 400 and the
 * posted values kept. Plain forms: they work without JavaScript.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { z } from "zod";
import { PAGE_SIZE } from "@contract/constants";
import type { AdminPage } from "@contract/api/admin";
import type { UpstreamResult } from "~/upstream/client.server";
import type { CatalogFields, Ctx } from "~/upstream/operator.server";
import { editorSchemas } from "~/schemas/content";
import { pageParam } from "~/utils/console";
import { forgetPolicyNotices, sanitizeContent } from "~/utils/content.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { operatorRedirect, requireOperator } from "~/utils/operator-session.server";
import { getT } from "~/i18n.server";

interface EditorKind<T extends { id: number }, X> {
  path: string;
  fields: z.ZodRawShape;
  list: (ctx: Ctx, page: number) => Promise<UpstreamResult<AdminPage<T>>>;
  save: (ctx: Ctx, id: number | null, body: CatalogFields) => Promise<UpstreamResult<T>>;
  /** What the editor's choices need (categories, pictures). */
  extra: (ctx: Ctx) => Promise<X>;
}

/** The posted fields as the upstream takes them (text trimmed; the HTML as written). */
function posted(formData: FormData, names: string[]): CatalogFields {
  const out: CatalogFields = {};
  for (const n of names) {
    const v = formData.get(n);
    if (typeof v === "string") out[n] = n === "content" ? v : v.trim();
  }
  return out;
}

/** ?edit=new, ?edit=ID, or null (the list only). */
function editParam(url: URL): "new" | number | null {
  const raw = url.searchParams.get("edit");
  if (raw === "new") return "new";
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

export function editorRoute<T extends { id: number }, X>(kind: EditorKind<T, X>) {
  const names = Object.keys(kind.fields);
  const schemas = editorSchemas(kind.fields);

  async function loader({ request }: LoaderFunctionArgs) {
    const op = await requireOperator(request);
    const url = new URL(request.url);
    const page = pageParam(url);
    const ctx = { request, op };
    const [r, extra] = await Promise.all([kind.list(ctx, page), kind.extra(ctx)]);
    const rows = r.ok ? r.data.data : [];
    const edit = editParam(url);
    const editing = typeof edit === "number" ? (rows.find((e) => e.id === edit) ?? null) : null;
    return data(
      {
        page,
        pages: Math.max(1, Math.ceil((r.ok ? r.data.total : 0) / PAGE_SIZE)),
        rows,
        notice: r.ok ? null : r.msg,
        edit: edit === "new" ? ("new" as const) : editing ? editing.id : null,
        editing,
        extra,
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  }

  async function action({ request }: ActionFunctionArgs) {
    const op = await requireOperator(request);
    const form = await readForm(request, schemas);
    const values = posted(form.formData, names);
    if (!form.ok) return refused(form, { values, preview: null });
    if (form.intent === "preview")
      return data({
        values,
        preview: { title: values.title ?? "", html: sanitizeContent(values.content ?? "") },
      });
    const id = form.value.id ?? null;
    const r = await kind.save({ request, op }, id, values);
    if (!r.ok)
      return data(
        {
          values,
          preview: null,
          refusedIntent: form.intent,
          result: form.reply({ formErrors: [r.msg] }),
        },
        { status: refusalStatus(r) },
      );
    forgetPolicyNotices();
    const t = await getT(request, ["operator"]);
    const page = pageParam(new URL(request.url));
    return operatorRedirect(op, page > 1 ? `${kind.path}?page=${page}` : kind.path, {
      type: "success",
      text: t(id === null ? "operator:catalog_added" : "operator:catalog_saved", { id: r.data.id }),
    });
  }

  return { loader, action };
}
