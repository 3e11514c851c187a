/**
 * Live merging of the signed-in account's pushes: FOREX_TRADE (account figures and each open
 * position's current price and floating profit) and FOREX_CLOSED (positions that closed).
 * `reset` (the loader's data) starts again from the server's figures; `onClosed` gets the ids of
 * each FOREX_CLOSED push so that the page can refresh what depends on them.
 */
import { useCallback, useEffect, useState } from "react";
import { useLive } from "~/live/useLive";
import { TOPIC } from "@contract/constants";
import type { ForexClosedPush, ForexTradePush } from "@contract/ws";
import { liveAccount, mergeLiveRows, type AccountView, type LiveRow } from "~/upstream/views";

const TOPICS = [TOPIC.FOREX_TRADE, TOPIC.FOREX_CLOSED] as const;
const NONE: readonly string[] = [];

export function useLiveAccount({
  enabled = true,
  reset,
  resetRows = true,
  onClosed,
}: {
  enabled?: boolean;
  reset: unknown;
  /** Whether `reset` also forgets the live prices of the rows (else they stay until the next push). */
  resetRows?: boolean;
  onClosed: (ids: number[]) => void;
}): { rows: Record<number, LiveRow>; account: Partial<AccountView>; closed: Set<number> } {
  const [rows, setRows] = useState<Record<number, LiveRow>>({});
  const [account, setAccount] = useState<Partial<AccountView>>({});
  const [closed, setClosed] = useState<Set<number>>(new Set());
  useEffect(() => {
    setAccount({});
    setClosed(new Set());
    if (resetRows) setRows({});
  }, [reset, resetRows]);

  const onLive = useCallback(
    (topic: string, payload: unknown) => {
      if (topic === TOPIC.FOREX_TRADE && payload && typeof payload === "object") {
        const p = payload as Partial<ForexTradePush>;
        setAccount(liveAccount(p));
        if (Array.isArray(p.TransOrder)) {
          const pushed = p.TransOrder;
          setRows((prev) => mergeLiveRows(prev, pushed));
        }
      } else if (topic === TOPIC.FOREX_CLOSED) {
        const ids = ((payload as Partial<ForexClosedPush> | null)?.ids ?? [])
          .map(Number)
          .filter(Number.isFinite);
        if (!ids.length) return;
        setClosed((prev) => new Set([...prev, ...ids]));
        onClosed(ids);
      }
    },
    [onClosed],
  );
  useLive(enabled ? TOPICS : NONE, onLive);
  return { rows, account, closed };
}
