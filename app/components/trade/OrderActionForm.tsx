/**
 * A one-button POST form acting on an order (intent=close or cancel, with id, CSRF and an
 * idempotency key). A real form without JavaScript; a fetcher (no page navigation) with it, which
 * shows a refusal (expired page, ...) beside the button.
 */
import { useFetcher } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { ReactNode } from "react";
import { FormErrors, refusalMessages } from "~/components/Form";

export function OrderActionForm({
  intent,
  id,
  idempotencyKey,
  label,
  children,
  className = "btn btn-small",
  action,
}: {
  intent: "close" | "cancel";
  id: number;
  idempotencyKey: string;
  /** Accessible name of the button, e.g. "Close position #12". */
  label: string;
  children: ReactNode;
  className?: string;
  /** Route to post to (default: the current route). */
  action?: string;
}) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action={action} className="inline-form" preventScrollReset>
      <AuthenticityTokenInput />
      <FormErrors errors={refusalMessages(fetcher.data)} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      <button
        type="submit"
        className={className}
        aria-label={label}
        disabled={busy}
        aria-busy={busy}
        data-testid={`order-${intent}`}
      >
        {children}
      </button>
    </fetcher.Form>
  );
}
