/**
 * /mine/watchlists' server side: the account's lists with each instrument's name and price, and
 * every change of them. The stars of the instrument rows (home, search, trade screen) post here
 * too (intent `star`): without JavaScript the answer sends the browser back to the page it was on
 * with a toast; with it (`via=fetch`, a fetcher) the answer is data, the toast is flashed for the
 * revalidated page, and nothing moves.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { Watchlist } from "@contract/api/watchlists";
import type { z } from "zod";
import {
  callerFor,
  failureToast,
  type Caller,
  type UpstreamResult,
} from "~/upstream/client.server";
import { tradeList } from "~/upstream/market.server";
import {
  watchlistCreate,
  watchlistDelete,
  watchlistItemAdd,
  watchlistItemMove,
  watchlistItemRemove,
  watchlistList,
  watchlistMove,
  watchlistRename,
} from "~/upstream/watchlists.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { commitSession, requireSignedIn, safeRedirectPath } from "~/utils/session.server";
import { flashToast, redirectWithToast } from "~/utils/toast.server";
import { getT } from "~/i18n.server";
import {
  itemAddSchema,
  itemMoveSchema,
  itemRemoveSchema,
  listCreateSchema,
  listDeleteSchema,
  listMoveSchema,
  listRenameSchema,
  moveOf,
  starSchema,
} from "~/schemas/watchlists";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const [lists, instruments] = await Promise.all([watchlistList(caller), tradeList(caller)]);
  const all = instruments.ok ? instruments.data : [];
  const byCode = new Map(all.map((i) => [i.Code, i]));
  return {
    lang: caller.lang,
    lists: (lists.ok ? lists.data : []).map((l) => ({
      ...l,
      items: l.items.map((it) => {
        const i = byCode.get(it.code);
        return {
          code: it.code,
          name: i?.ShowCode ?? it.code,
          price: i?.ForexQuotations.Close ?? null,
          precision: i?.PricePrecision ?? 2,
        };
      }),
    })),
    instruments: all.map((i) => ({ code: i.Code, name: i.ShowCode })),
    toast: failureToast(lists, instruments),
  };
}

const SCHEMAS = {
  star: starSchema,
  create: listCreateSchema,
  rename: listRenameSchema,
  delete: listDeleteSchema,
  list_up: listMoveSchema,
  list_down: listMoveSchema,
  item_add: itemAddSchema,
  item_remove: itemRemoveSchema,
  item_up: itemMoveSchema,
  item_down: itemMoveSchema,
};

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, SCHEMAS);
  const viaFetch = form.formData.get("via") === "fetch";
  const caller = await callerFor(request);
  if (!form.ok) {
    if (viaFetch && form.intent === "star") {
      const t = await getT(request, ["common", "auth", "watchlists"]);
      // A schema's message is a key ("watchlists:code_required"); the pipeline's are translated.
      const first = Object.values(form.result.error ?? {}).flat()[0] ?? "watchlists:code_required";
      const text = /^[a-z]+:[a-z0-9_.]+$/.test(first) ? t(first) : first;
      flashToast(caller.session, { type: "error", text });
      return data(
        { refusedIntent: form.intent, result: form.result },
        { status: form.status, headers: { "Set-Cookie": await commitSession(caller.session) } },
      );
    }
    return refused(form, { refusedList: listOf(form.formData) });
  }
  const v = form.value;
  const { r, to } = await change(caller, v);
  if (v.intent === "star" && viaFetch) {
    flashToast(caller.session, { type: r.ok ? "success" : "error", text: r.msg });
    return data(
      { ok: r.ok },
      {
        status: r.ok ? 200 : refusalStatus(r),
        headers: { "Set-Cookie": await commitSession(caller.session) },
      },
    );
  }
  if (!r.ok)
    return data(
      {
        refusedIntent: form.intent,
        refusedList: listOf(form.formData),
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  // A star goes back to the page it was on.
  const next = v.intent === "star" ? safeRedirectPath(v.back, "/") : to;
  return redirectWithToast(caller.session, next, { type: "success", text: r.msg });
}

/** A change of the lists as the accepted form asks, and where its result is shown: the card of the
 * list it touched (by fragment), else the top of the page. */
async function change(
  caller: Caller,
  v: Accepted,
): Promise<{ r: UpstreamResult<Watchlist[]>; to: string }> {
  const to = "/mine/watchlists";
  switch (v.intent) {
    case "star":
      return {
        r: v.add
          ? await watchlistItemAdd(caller, v.add)
          : await watchlistItemRemove(caller, v.remove ?? ""),
        to,
      };
    case "create": {
      const r = await watchlistCreate(caller, v.name);
      return { r, to: r.ok ? `${to}#list-${r.data[r.data.length - 1]?.id ?? ""}` : to };
    }
    case "rename":
      return { r: await watchlistRename(caller, v.id, v.name), to: `${to}#list-${v.id}` };
    case "delete":
      return { r: await watchlistDelete(caller, v.id), to };
    case "list_up":
    case "list_down":
      return { r: await watchlistMove(caller, v.id, moveOf(v.intent)), to: `${to}#list-${v.id}` };
    case "item_add":
      return {
        r: await watchlistItemAdd(caller, v.code, v.list_id),
        to: `${to}#list-${v.list_id}`,
      };
    case "item_remove":
      return {
        r: await watchlistItemRemove(caller, v.code, v.list_id),
        to: `${to}#list-${v.list_id}`,
      };
    case "item_up":
    case "item_down":
      return {
        r: await watchlistItemMove(caller, v.list_id, v.code, moveOf(v.intent)),
        to: `${to}#list-${v.list_id}`,
      };
  }
}

/** What an accepted form holds (one of SCHEMAS' outputs). */
type Accepted = {
  [K in keyof typeof SCHEMAS]: z.output<(typeof SCHEMAS)[K]>;
}[keyof typeof SCHEMAS];

/** The list a posted form was about (its card shows the refusal), or null. */
function listOf(formData: FormData): number | null {
  const id = Number(formData.get("list_id") ?? formData.get("id"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
