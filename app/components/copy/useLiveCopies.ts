/**
 * Live figures of the user's copies: each COPY_TRADE push ({copies}, every copy not stopped with
 * its figures now) replaces the shown figures of the copies it names. `initial` (the loader's
 * copies) starts again from the server's figures. `onChange` hears of a copy whose open positions or status
 * changed, so that a page listing the positions can load them again.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { TOPIC } from "@contract/constants";
import type { Copy, CopyTradePush } from "@contract/api/copy";
import { useLive } from "~/live/useLive";

const TOPICS = [TOPIC.COPY_TRADE] as const;

const markOf = (c: Copy) => `${c.status}|${c.open_positions}`;

export function useLiveCopies(
  initial: readonly Copy[],
  onChange?: (copy: Copy) => void,
): Record<number, Copy> {
  const [live, setLive] = useState<Record<number, Copy>>({});
  const seen = useRef<Record<number, string>>({});
  useEffect(() => {
    setLive({});
    seen.current = Object.fromEntries(initial.map((c) => [c.id, markOf(c)]));
  }, [initial]);
  const onLive = useCallback(
    (_topic: string, payload: unknown) => {
      const copies = (payload as Partial<CopyTradePush> | null)?.copies;
      if (!Array.isArray(copies)) return;
      setLive((prev) => {
        const next = { ...prev };
        for (const c of copies) if (c && typeof c.id === "number") next[c.id] = c;
        return next;
      });
      for (const c of copies) {
        if (!c || typeof c.id !== "number") continue;
        const mark = markOf(c);
        const before = seen.current[c.id];
        seen.current[c.id] = mark;
        if (before !== undefined && before !== mark) onChange?.(c);
      }
    },
    [onChange],
  );
  useLive(TOPICS, onLive);
  return live;
}
