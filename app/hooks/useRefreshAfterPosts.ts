/**
 * Refreshing a page's loaders for live news (a push, a pull to refresh) without ever cutting a
 * form post short.
 */
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import {
  startTransition,
  useCallback,
  useEffect,
  useRef,
  useState,
  type MutableRefObject,
} from "react";

/**
 * While a form post from the page (a navigation or a fetcher submission) is under way, a live close
 * must only mark the page for a refresh once it is done: acting at once would abort the post's
 * redirect load (losing its toast), and the post's form may be gone already (a fetcher removed
 * mid-flight skips its redirect, so that refresh is what shows the toast then).
 *
 * Put what to do into `pending.current` and call `later()`: `refresh(pending)` runs once a render
 * shows nothing in flight. The check is a render of its own scheduled as a transition, never a
 * decision made in the push's handler: the router renders a submission's state in a transition
 * too, which React may not have rendered yet when the push arrives (live prices keep it busy with
 * urgent updates), and a refresh decided on that stale "idle" would revalidate under the post and
 * make the router drop its redirect, toast and all. React renders pending transitions together, so
 * the check's render sees every submission begun before it.
 */
export function useRefreshAfterPosts<T>(refresh: (what: T) => void): {
  pending: MutableRefObject<T | null>;
  later: () => void;
} {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busyNow =
    navigation.state !== "idle" ||
    fetchers.some((f) => f.state !== "idle" && f.formMethod !== undefined);
  const pending = useRef<T | null>(null);
  const [round, setRound] = useState(0);
  const later = useCallback(() => startTransition(() => setRound((r) => r + 1)), []);
  useEffect(() => {
    const what = pending.current;
    if (busyNow || what === null) return;
    pending.current = null;
    refresh(what);
  }, [busyNow, refresh, round]);
  return { pending, later };
}

/**
 * A revalidation of the page's loaders that waits for any post under way (useRefreshAfterPosts):
 * the post's redirect brings new data and the toast it carries (read once from the session), and
 * a revalidation started under it would make the router drop that answer for one without the
 * toast. Calls made while one waits are one revalidation.
 */
export function useRevalidateAfterPosts(): () => void {
  const revalidator = useRevalidator();
  const { pending, later } = useRefreshAfterPosts<true>(
    useCallback(() => revalidator.revalidate(), [revalidator]),
  );
  return useCallback(() => {
    pending.current = true;
    later();
  }, [pending, later]);
}
