/**
 * Client validation whose schema arrives after the first paint. A form's zod schema and
 * @conform-to/zod are 16 KiB of gzip; on a page whose budget cannot carry them (decision 0011) the
 * browser imports them once the page is interactive. Until then a submit goes to the server, which
 * validates with the same schema (its action), so nothing is accepted that the schema refuses; a
 * blur shows nothing until the schema is there. The constraint attributes (required, minLength …)
 * come from the loader, rendered the same with or without JavaScript.
 */
import { parse, type Submission } from "@conform-to/react";
import { useCallback, useEffect, useRef } from "react";

export type Validate<Output> = (formData: FormData) => Submission<Output>;

/** "Not decided here": conform lets the submit through to the server. */
const toServer = (formData: FormData) => parse(formData, { resolve: () => ({ error: null }) });

export function useDeferredValidation<Output>(
  load: () => Promise<Validate<Output>>,
): (context: { formData: FormData }) => Submission<Output> {
  const validate = useRef<Validate<Output> | null>(null);
  const loadOnce = useRef(load);
  useEffect(() => {
    let mounted = true;
    loadOnce.current().then(
      (v) => {
        if (mounted) validate.current = v;
      },
      (err: unknown) => console.error(err),
    );
    return () => {
      mounted = false;
    };
  }, []);
  return useCallback(
    ({ formData }) =>
      validate.current ? validate.current(formData) : (toServer(formData) as Submission<Output>),
    [],
  );
}
