/**
 * /mine/notifications' server side: the account's notices (?page=, newest first, the unread ones
 * marked) and "mark all read".
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { PAGE_SIZE } from "@contract/constants";
import { callerFor } from "~/upstream/client.server";
import { noticeList, noticesRead } from "~/upstream/notify.server";
import { pageParam } from "~/utils/console";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { requireSignedIn } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const page = pageParam(new URL(request.url));
  const r = await noticeList(caller, page);
  return {
    lang: caller.lang,
    page,
    pages: r.ok ? Math.max(1, Math.ceil(r.data.total / PAGE_SIZE)) : 1,
    notices: r.ok ? r.data.data : [],
    unread: r.ok ? r.data.unread : 0,
    notice: r.ok ? null : r.msg,
  };
}

const readAllSchema = z.object({ intent: z.literal("read_all") });

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, { read_all: readAllSchema });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const r = await noticesRead(caller);
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["notify"]);
  const to = new URL(request.url);
  return redirectWithToast(caller.session, to.pathname + to.search, {
    type: "success",
    text: t("notify:all_read"),
  });
}
