/**
 * Live merging of the signed-in account's pushes: FOREX_TRADE (account figures and each open
 * position's current price and floating profit) and FOREX_CLOSED (positions that closed).
 * `reset` (the loader's data) starts again from the server's figures; `onClosed` gets the ids of
 * each FOREX_CLOSED push so that the page can refresh what depends on them.
 */
import { useCallback, useEffect, useState } from "react";
import { useLive } from "~/live/useLive";
import { mergeLiveRows, type ForexTradePush } from "~/components/trade/hooks";
import type { LiveRow } from "~/components/trade/PositionList";
import type { Summary } from "~/components/trade/SummaryCard";

const TOPICS = ["FOREX_TRADE", "FOREX_CLOSED"] as const;
const NONE: readonly string[] = [];

/** The account figures of a FOREX_TRADE push (only those it carries). */
export function accountOfPush(p: ForexTradePush): Partial<Summary> {
  return {
    ...(typeof p.Balance === "number" ? { balance: p.Balance } : {}),
    ...(typeof p.Total === "number" ? { total: p.Total } : {}),
    ...(typeof p.CautionMoneyAll === "number" ? { all_caution_money: p.CautionMoneyAll } : {}),
    ...(typeof p.CanUse === "number" ? { can_use: p.CanUse } : {}),
    ...("HazardRate" in p ? { HazardRate: p.HazardRate ?? null } : {}),
    ...(typeof p.ProfitsTotal === "number" ? { profit: p.ProfitsTotal } : {}),
    marginCall: Boolean(p.MarginCall),
  };
}

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
}): { rows: Record<number, LiveRow>; account: Partial<Summary>; closed: Set<number> } {
  const [rows, setRows] = useState<Record<number, LiveRow>>({});
  const [account, setAccount] = useState<Partial<Summary>>({});
  const [closed, setClosed] = useState<Set<number>>(new Set());
  useEffect(() => {
    setAccount({});
    setClosed(new Set());
    if (resetRows) setRows({});
  }, [reset, resetRows]);

  const onLive = useCallback(
    (topic: string, payload: unknown) => {
      if (topic === "FOREX_TRADE" && payload && typeof payload === "object") {
        const p = payload as ForexTradePush;
        setAccount(accountOfPush(p));
        if (Array.isArray(p.TransOrder)) {
          const pushed = p.TransOrder;
          setRows((prev) => mergeLiveRows(prev, pushed));
        }
      } else if (topic === "FOREX_CLOSED") {
        const ids = ((payload as { ids?: unknown[] })?.ids ?? []).map(Number).filter(Number.isFinite);
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
