import { useFetcher, useLocation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Hidden } from "~/components/Hidden";

interface PolicyNoticeView {
  id: number;
  /** When it was published (what the dismissal remembers). */
  version: string;
  title: string;
  /** Sanitised HTML (the contract's allow-list, applied by the upstream and by the web). */
  html: string;
  /** The button's label, translated by the server. */
  dismiss: string;
}

/**
 * The notice that services are not provided to certain countries, shown once to a new visitor at
 * the top of the page (in the flow: it covers nothing), with its whole text. "I understand" posts a
 * plain form that remembers the dismissal and comes back to the same page; with JavaScript the
 * banner goes at once while the form is posted.
 */
export function PolicyNotice({ notice }: { notice: PolicyNoticeView }) {
  const location = useLocation();
  const fetcher = useFetcher();
  if (fetcher.state !== "idle" || fetcher.data !== undefined) return null;
  const here = location.pathname + location.search;
  return (
    <section
      className="policy-notice"
      aria-labelledby="policy-notice-title"
      data-testid="policy-notice"
    >
      <h2 id="policy-notice-title" className="policy-title">
        {notice.title}
      </h2>
      <div className="policy-body" dangerouslySetInnerHTML={{ __html: notice.html }} />
      <fetcher.Form method="post" action="/policy-notice" className="policy-actions">
        <AuthenticityTokenInput />
        <Hidden name="version" value={notice.version} />
        <Hidden name="redirectTo" value={here} />
        <button type="submit" className="btn btn-small btn-primary">
          {notice.dismiss}
        </button>
      </fetcher.Form>
    </section>
  );
}
