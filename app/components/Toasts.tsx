import { useEffect, useState } from "react";

export interface ToastItem {
  type: "success" | "error" | "info";
  text: string;
}

/**
 * Toasts from the flash session and from loaders. They fade out by CSS alone (no JavaScript needed);
 * with JavaScript they can also be dismissed by a tap.
 */
export function Toasts({ items }: { items: ToastItem[] }) {
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const key = items.map((i) => i.type + i.text).join("|");
  useEffect(() => setHidden(new Set()), [key]);
  const visible = items.filter((i) => !hidden.has(i.type + i.text));
  if (visible.length === 0) return null;
  return (
    <div className="toasts" role="status" aria-live="polite">
      {visible.map((item) => (
        <div
          key={item.type + item.text}
          className={`toast toast-${item.type}`}
          role={item.type === "error" ? "alert" : undefined}
          data-toast={item.type}
          onClick={() => setHidden((h) => new Set(h).add(item.type + item.text))}
        >
          {item.text}
        </div>
      ))}
    </div>
  );
}
