import { useEffect, useState } from "react";

export interface ToastItem {
  type: "success" | "error" | "info";
  text: string;
}

/** How long a toast lives (the CSS animation toast-life lasts 5 s; 6 s with reduced motion). */
const LIFE_MS = 6_500;

const idOf = (i: ToastItem) => i.type + i.text;

/**
 * Toasts from the flash session and from loaders. They fade out by CSS alone (no JavaScript needed);
 * with JavaScript they can also be dismissed by a tap, and a toast stays for its life even when a
 * later revalidation (live data, a fetcher) brings loader data without it.
 */
export function Toasts({ items }: { items: ToastItem[] }) {
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const [kept, setKept] = useState<{ item: ToastItem; until: number }[]>([]);
  const key = items.map(idOf).join("|");
  useEffect(() => {
    if (items.length === 0) return;
    const ids = new Set(items.map(idOf));
    setHidden((h) => new Set([...h].filter((id) => !ids.has(id))));
    const until = Date.now() + LIFE_MS;
    setKept((prev) => [
      ...prev.filter((k) => !ids.has(idOf(k.item))),
      ...items.map((item) => ({ item, until })),
    ]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    if (kept.length === 0) return;
    const next = Math.min(...kept.map((k) => k.until));
    const timer = setTimeout(
      () => setKept((prev) => prev.filter((k) => k.until > Date.now())),
      Math.max(0, next - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [kept]);
  const shown = new Set(items.map(idOf));
  const all = [...items, ...kept.map((k) => k.item).filter((i) => !shown.has(idOf(i)))];
  const visible = all.filter((i) => !hidden.has(idOf(i)));
  if (visible.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-live="polite">
      {visible.map((item) => (
        <div
          key={idOf(item)}
          className={`toast toast-${item.type}`}
          role={item.type === "error" ? "alert" : undefined}
          data-toast={item.type}
          onClick={() => setHidden((h) => new Set(h).add(idOf(item)))}
        >
          {item.text}
        </div>
      ))}
    </div>
  );
}
