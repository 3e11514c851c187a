/**
 * The star of an instrument row: adds the instrument to Favourites, or takes it off. Every star of
 * a list submits one hidden form (the CSRF token, `intent=star`, the page to come back to) through
 * its `form` attribute, with its own `add` or `remove` and the code: a plain POST without
 * JavaScript (answered by a redirect back here). With JavaScript a fetcher posts the same fields
 * and `via=fetch`, so the page stays where it is; the star shows its new state at once, and the
 * page's data (and so its tabs) are read again after the answer.
 */
import { useFetcher } from "@remix-run/react";
import type { MouseEvent } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { Hidden } from "./Hidden";

/** Where stars post (the watchlists page's action). */
export const STAR_ACTION = "/mine/watchlists";

/** The form every star of a list submits (hidden: the stars are its buttons). */
export function StarForm({ id, back }: { id: string; back: string }) {
  return (
    <form id={id} method="post" action={STAR_ACTION} hidden>
      <AuthenticityTokenInput />
      <Hidden name="intent" value="star" />
      <Hidden name="back" value={back} />
    </form>
  );
}

/** A star's accessible names, made once per list ("Add EURUSD to Favourites"). */
export interface StarLabels {
  add: (name: string) => string;
  remove: (name: string) => string;
}

export function StarButton({
  formId,
  code,
  name,
  starred,
  labels,
  className = "star",
}: {
  formId: string;
  code: string;
  /** The instrument's name as the row shows it. */
  name: string;
  starred: boolean;
  labels: StarLabels;
  className?: string;
}) {
  const fetcher = useFetcher<{ ok: boolean }>();
  // While the fetcher posts, the star shows what it asked for.
  const pending = fetcher.formData;
  const on = pending ? pending.has("add") : starred;
  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    const form = e.currentTarget.form;
    if (!form || e.defaultPrevented) return;
    e.preventDefault();
    const fd = new FormData(form);
    fd.set(on ? "remove" : "add", code);
    fd.set("via", "fetch");
    fetcher.submit(fd, { method: "post", action: STAR_ACTION });
  };
  return (
    <button
      type="submit"
      form={formId}
      name={on ? "remove" : "add"}
      value={code}
      className={className}
      aria-pressed={on}
      aria-label={on ? labels.remove(name) : labels.add(name)}
      data-star={code}
      onClick={onClick}
    >
      <StarGlyph />
    </button>
  );
}

/** The star's drawing (filled by the CSS of `.star[aria-pressed="true"]`). */
export function StarGlyph() {
  return (
    <svg viewBox="0 0 24 24" width={22} height={22} aria-hidden="true" focusable="false">
      <path d="m12 3.2 2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 17l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8Z" />
    </svg>
  );
}
