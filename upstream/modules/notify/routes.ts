/**
 * Notification routes (upstream/API.md "Notifications", @contract/api/notify): the account's
 * notices, newest first, and marking them all read. Also where the engine's outcomes become
 * notices: a take-profit, stop-loss or stop-out booked, a pending order filled or cancelled for want
 * of margin, each written as a follow-up of the command that booked it, inside its batch (so it
 * commits with the booking), for a person's own account (not a copy's nor a strategy trader's).
 * The NOTICE push tells a signed-in browser its unread count as it changes.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/notify";
import type { NoticeKind } from "@contract/api/notify";
import { PAGE_SIZE, TOPIC } from "@contract/constants";
import type { CloseReason } from "@contract/enums";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { accountRoleOf } from "../operators/console-store.js";
import { announce, DEFAULT_CHANNELS, noticeView, notify, onNotice } from "./notices.js";
import type { NoticeSettings } from "@contract/api/notify";
import { originOf, sealingKeyOf } from "../identity/security-routes.js";
import { userById } from "../identity/store.js";
import { vapidKeys } from "./delivery.js";
import {
  prefsOf,
  removeSubscription,
  saveSubscription,
  setPref,
  subscriptionsOf,
} from "./delivery-store.js";
import {
  markNoticesRead,
  noticePage,
  noticeTotal,
  unreadNotices,
  unreadNoticesLater,
} from "./store.js";

/** The closes a person is told of, by their reason. */
const CLOSE_NOTICES: Partial<Record<CloseReason, NoticeKind>> = {
  take_profit: "take_profit",
  stop_loss: "stop_loss",
  trailing_stop: "trailing_stop",
  stop_out: "stop_out",
};

/** The cancellations of pending orders a person is told of, by their reason. */
const CANCEL_NOTICES: Partial<Record<CloseReason, NoticeKind>> = {
  insufficient_margin: "pending_cancelled",
  expired: "pending_expired",
};

export function registerNotifyRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  o: { leader: boolean },
): void {
  const { db } = ctx;

  route(app, api.noticeList, async (req) => {
    const me = requireUser(db, req);
    const page = req.query.page;
    const rows = noticePage(db, {
      userId: me.id,
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    });
    return ctx.ok(req, {
      data: rows.map((r) => noticeView(req.lang, r)),
      total: noticeTotal(db, me.id),
      unread: unreadNotices(db, me.id),
    });
  });

  route(app, api.noticesRead, async (req) => {
    const me = requireUser(db, req);
    db.transaction(() => {
      markNoticesRead(db, { userId: me.id, at: Date.now() });
      announce(db, me.id);
    })();
    return ctx.ok(req, { unread: 0 });
  });

  route(app, api.noticeSettings, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, settingsOf(ctx, me.id));
  });

  route(app, api.noticeSettingsSave, async (req) => {
    const me = requireUser(db, req);
    const body = req.body as Record<string, boolean | undefined>;
    db.transaction(() => {
      for (const kind of api.NOTICE_KINDS)
        setPref(db, {
          userId: me.id,
          kind,
          email: body[`email_${kind}`] ? 1 : 0,
          push: body[`push_${kind}`] ? 1 : 0,
        });
    })();
    return ctx.ok(req, settingsOf(ctx, me.id), "notify.settings_saved");
  });

  route(app, api.pushKey, async (req) =>
    ctx.ok(req, { public_key: vapidKeys(db, sealingKeyOf(ctx)).publicKey }),
  );

  route(app, api.pushSubscribe, async (req) => {
    const me = requireUser(db, req);
    saveSubscription(db, {
      userId: me.id,
      endpoint: req.body.endpoint,
      p256dh: req.body.p256dh,
      auth: req.body.auth,
      lang: req.lang,
      userAgent: originOf(req).userAgent,
      at: Date.now(),
    });
    return ctx.ok(req, null, "notify.push_on");
  });

  route(app, api.pushUnsubscribe, async (req) => {
    const me = requireUser(db, req);
    removeSubscription(db, { endpoint: req.body.endpoint, userId: me.id });
    return ctx.ok(req, null, "notify.push_off");
  });

  // Only the leader runs the engine; every node pushes the unread counts its own writes change.
  if (o.leader) registerEngineNotices(ctx);
  registerNoticePush(ctx);
}

/** Every kind's channels (the defaults where nothing was chosen), and what they can reach. */
function settingsOf(ctx: AppContext, userId: number): NoticeSettings {
  const chosen = new Map(prefsOf(ctx.db, userId).map((p) => [p.kind, p]));
  return {
    kinds: api.NOTICE_KINDS.map((kind) => {
      const p = chosen.get(kind) ?? DEFAULT_CHANNELS;
      return { kind, email: p.email === 1, push: p.push === 1 };
    }),
    push_devices: subscriptionsOf(ctx.db, userId).length,
    has_email: Boolean(userById(ctx.db, userId)?.email),
  };
}

/** A person's own account (a copy's account and a strategy trader's have nobody to tell). */
export const isPerson = (ctx: AppContext, userId: number) => accountRoleOf(ctx.db, userId) === null;

/** The engine's outcomes a person is told of, written inside the batch that booked them. */
function registerEngineNotices(ctx: AppContext): void {
  const ev = ctx.engine.decided;
  ev.on(
    "positionsClosed",
    (e) => {
      const kind = CLOSE_NOTICES[e.reason];
      if (kind && isPerson(ctx, e.userId))
        notify(ctx.db, { userId: e.userId, kind, params: { count: e.orderIds.length } });
    },
    (e) => CLOSE_NOTICES[e.reason] !== undefined,
  );
  ev.on("orderActivated", (e) => {
    if (isPerson(ctx, e.userId))
      notify(ctx.db, {
        userId: e.userId,
        kind: "pending_filled",
        params: { id: e.orderId, price: e.price },
      });
  });
  ev.on(
    "orderCancelled",
    (e) => {
      const kind = CANCEL_NOTICES[e.reason];
      if (kind && isPerson(ctx, e.userId))
        notify(ctx.db, { userId: e.userId, kind, params: { id: e.orderId } });
    },
    (e) => CANCEL_NOTICES[e.reason] !== undefined,
  );
}

/** The NOTICE push: a subscriber's unread count at once, then whenever it changes. */
function registerNoticePush(ctx: AppContext): void {
  const { db, hub } = ctx;
  const push = async (userId: number) => {
    if (!hub.subscribedUsers(TOPIC.NOTICE).includes(userId)) return;
    try {
      hub.publishToUser(userId, TOPIC.NOTICE, { unread: await unreadNoticesLater(db, userId) });
    } catch (err) {
      ctx.log.error({ err }, "NOTICE push failed");
    }
  };
  onNotice(db, (userId) => void push(userId));
  hub.onSubscribe(
    (t) => t === TOPIC.NOTICE,
    (_t, who) => {
      if (who.userId !== null) {
        const userId = who.userId;
        void unreadNoticesLater(db, userId)
          .then((unread) => hub.publishToUser(userId, TOPIC.NOTICE, { unread }))
          .catch((err) => ctx.log.error({ err }, "NOTICE push failed"));
      }
      return undefined;
    },
  );
}
