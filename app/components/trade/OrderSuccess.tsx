/**
 * The success pop-up after an order: a <dialog> rendered from the action data (open on the server,
 * so it shows without JavaScript too), with a link to /order. With JavaScript it can be dismissed
 * in place; without, "Continue" is a link back to the trade screen.
 */
import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/translation";
import { useHydrated } from "./hooks";

export function OrderSuccess({
  token,
  text,
  pending,
  backHref,
}: {
  token: string;
  text: string;
  pending: boolean;
  backHref: string;
}) {
  const { t } = useTranslation("trade");
  const hydrated = useHydrated();
  const [open, setOpen] = useState(true);
  useEffect(() => setOpen(true), [token]);
  if (!open) return null;
  return (
    <div className="modal-backdrop">
      <dialog
        open
        className="modal order-success"
        aria-labelledby="order-success-title"
        data-testid="order-success"
      >
        <h2 id="order-success-title">{t("success.title")}</h2>
        <p role="status">
          {text && text !== t("success.title")
            ? text
            : t(pending ? "success.pending" : "success.market")}
        </p>
        <div className="modal-actions">
          <Link
            to={pending ? "/order?status=0" : "/order?status=1"}
            className="btn btn-primary"
            data-testid="order-success-link"
          >
            {t("success.view_orders")}
          </Link>
          {hydrated ? (
            <button type="button" className="btn btn-outline" onClick={() => setOpen(false)}>
              {t("success.continue")}
            </button>
          ) : (
            <Link to={backHref} className="btn btn-outline">
              {t("success.continue")}
            </Link>
          )}
        </div>
      </dialog>
    </div>
  );
}
