/**
 * Live figures of the user's copies. Each COPY_TRADE push ({copies}: every copy not stopped, with
 * its figures now) replaces the money figures and open-position count of the copies it names; the
 * status stays the server's (the push is only sent when a copy's account changes, so a pause or a
 * stop may leave an older push as the latest), and a copy the server shows stopped is never
 * overwritten. `initial` (the loader's copies) starts again from the server's figures.
 *
 * Each copy also carries `livePositions`: its open copied positions' price and profit from the
 * latest push, by position id (a copy's page shows them moving).
 *
 * `onChange` hears when the page should load again: a copy's open positions changed, or a push
 * (after the first one, which may be older than the page) no longer names a copy the page shows
 * live (it stopped: by its copy stop-loss, say).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { TOPIC } from "@contract/constants";
import type { Copy } from "@contract/api/copy";
import type { CopyPositionFigures, CopyTradePush } from "@contract/ws";
import { useLive } from "~/live/useLive";

const TOPICS = [TOPIC.COPY_TRADE] as const;

type Figures = Pick<
  Copy,
  | "invested"
  | "balance"
  | "equity"
  | "profit"
  | "stop_loss_level"
  | "free_margin"
  | "open_positions"
>;

/** A copy with its open positions' figures from the latest push (absent before any push). */
export type LiveCopy = Copy & { livePositions?: Record<number, CopyPositionFigures> };

const figuresOf = (
  c: CopyTradePush["copies"][number],
): Figures & Pick<LiveCopy, "livePositions"> => ({
  invested: c.invested,
  balance: c.balance,
  equity: c.equity,
  profit: c.profit,
  stop_loss_level: c.stop_loss_level,
  free_margin: c.free_margin,
  open_positions: c.open_positions,
  livePositions: Object.fromEntries(
    (Array.isArray(c.positions) ? c.positions : []).map((p) => [p.id, p]),
  ),
});

export function useLiveCopies(
  initial: readonly Copy[],
  onChange?: () => void,
): Record<number, LiveCopy> {
  const [live, setLive] = useState<Record<number, Figures & Pick<LiveCopy, "livePositions">>>({});
  const counts = useRef<Record<number, number>>({});
  const pushes = useRef(0);
  useEffect(() => {
    setLive({});
    counts.current = Object.fromEntries(
      initial.filter((c) => c.status !== "stopped").map((c) => [c.id, c.open_positions]),
    );
    pushes.current = 0;
  }, [initial]);

  const onLive = useCallback(
    (_topic: string, payload: unknown) => {
      const copies = (payload as Partial<CopyTradePush> | null)?.copies;
      if (!Array.isArray(copies)) return;
      const known = counts.current;
      const pushed = copies.filter((c) => c && typeof c.id === "number" && c.id in known);
      const first = pushes.current++ === 0;
      let changed = !first && Object.keys(known).some((id) => !pushed.some((c) => c.id === +id));
      for (const c of pushed) {
        if (known[c.id] !== c.open_positions) changed = true;
        known[c.id] = c.open_positions;
      }
      setLive((prev) => {
        const next = { ...prev };
        for (const c of pushed) next[c.id] = figuresOf(c);
        return next;
      });
      if (changed) onChange?.();
    },
    [onChange],
  );
  useLive(TOPICS, onLive);

  const out: Record<number, LiveCopy> = {};
  for (const c of initial) out[c.id] = live[c.id] ? { ...c, ...live[c.id] } : c;
  return out;
}
