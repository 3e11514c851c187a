import { useNavigate } from "@remix-run/react";
import { useCallback, type MouseEvent } from "react";

/**
 * Client-side navigation for a long list of plain links (quote rows, the instrument picker): one
 * click handler on the list instead of a router <Link> per row (each <Link> resolves its path
 * against the route tree and sets up its own handlers while the page renders, once per row). The
 * rows stay ordinary <a href> links (with data-discover, so the router
 * still learns their routes ahead of a click): without JavaScript, or with a modifier key, a middle
 * click or another origin, the browser follows them itself.
 */
export function useListLinks() {
  const navigate = useNavigate();
  return useCallback(
    (e: MouseEvent<HTMLElement>) => {
      if (e.defaultPrevented || e.button !== 0) return;
      if (e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
      const a = (e.target as Element).closest("a");
      if (!a || !e.currentTarget.contains(a)) return;
      if (a.target || a.hasAttribute("download") || a.origin !== window.location.origin) return;
      e.preventDefault();
      navigate(a.pathname + a.search + a.hash);
    },
    [navigate],
  );
}
