/** The user's copies (login required): the list, each with fresh keys for its forms; its commands. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { copyList } from "~/upstream/follow.server";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { newIdempotencyKey } from "~/utils/forms.server";
import { copyAction } from "~/utils/copy-actions.server";
import { COPIES_HREF } from "~/utils/copy-href";

/** Fresh idempotency keys of a copy's forms. */
export function copyKeys() {
  return {
    pause: newIdempotencyKey(),
    resume: newIdempotencyKey(),
    stop: newIdempotencyKey(),
    funds: newIdempotencyKey(),
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["copy"]);
  const r = await copyList(caller);
  const copies = r.ok ? r.data : [];
  return data(
    {
      lang: caller.lang,
      title: t("copy:copies.title"),
      copies,
      keys: Object.fromEntries(copies.map((c) => [c.id, copyKeys()])),
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export function action({ request }: ActionFunctionArgs) {
  return copyAction(request, COPIES_HREF);
}
