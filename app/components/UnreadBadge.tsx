/**
 * The account's unread notifications as a small count beside the way to them: `initial` is what
 * the server knew (0 where it did not ask), and with JavaScript the NOTICE push keeps it current.
 * Nothing is shown at 0.
 */
import { useCallback, useState } from "react";
import { useTranslation } from "~/translation";
import { TOPIC } from "@contract/constants";
import type { NoticePush } from "@contract/ws";
import { useLive } from "~/live/useLive";

const TOPICS = [TOPIC.NOTICE] as const;

export function UnreadBadge({ initial }: { initial: number }) {
  const { t } = useTranslation("common");
  const [unread, setUnread] = useState(initial);
  const onPush = useCallback((_topic: string, data: unknown) => {
    const n = (data as NoticePush | null)?.unread;
    if (typeof n === "number") setUnread(n);
  }, []);
  useLive(TOPICS, onPush);
  if (unread <= 0) return null;
  return (
    <span
      className="count-badge"
      data-testid="unread-badge"
      aria-label={t("user.unread_badge", { count: unread })}
    >
      {unread > 99 ? "99+" : unread}
    </span>
  );
}
