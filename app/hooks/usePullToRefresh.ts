/**
 * Pull to refresh: pulling down at the top of the page reloads the route's data; the spinner
 * closes after 500 ms (product-spec.md section 9). Spread `handlers` on the page's root element.
 */
import { useRevalidateAfterPosts } from "~/hooks/useRefreshAfterPosts";
import { useCallback, useState, type TouchEvent } from "react";

/** Pixels of pull that trigger a refresh, and from which the spinner shows. */
const TRIGGER_PX = 70;
const SHOW_PX = 20;
const SPINNER_MS = 500;

export function usePullToRefresh(): {
  handlers: {
    onTouchStart: (e: TouchEvent) => void;
    onTouchMove: (e: TouchEvent) => void;
    onTouchEnd: () => void;
  };
  /** Whether the spinner shows, and its height while pulling. */
  spinner: { visible: boolean; height?: number };
  refresh: () => void;
} {
  // A pull while a form posts refreshes once the post's redirect is in (see the hook).
  const revalidate = useRevalidateAfterPosts();
  const [pull, setPull] = useState<{ startY: number; dy: number } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = useCallback(() => {
    setRefreshing(true);
    revalidate();
    setTimeout(() => setRefreshing(false), SPINNER_MS);
  }, [revalidate]);
  const handlers = {
    onTouchStart: (e: TouchEvent) => {
      if (window.scrollY <= 0) setPull({ startY: e.touches[0].clientY, dy: 0 });
    },
    onTouchMove: (e: TouchEvent) => {
      if (pull) setPull({ ...pull, dy: Math.max(0, e.touches[0].clientY - pull.startY) });
    },
    onTouchEnd: () => {
      if (pull && pull.dy > TRIGGER_PX) refresh();
      setPull(null);
    },
  };
  return {
    handlers,
    spinner: {
      visible: refreshing || Boolean(pull && pull.dy > SHOW_PX),
      height: pull ? Math.min(pull.dy, 80) : undefined,
    },
    refresh,
  };
}
