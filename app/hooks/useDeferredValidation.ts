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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema's submission
type Validate = (formData: FormData) => Submission<any>;

/** "Not decided here": conform lets the submit through to the server. */
const toServer = (formData: FormData) => parse(formData, { resolve: () => ({ error: null }) });

/** `onValidate` for conform's useForm: `load` imports the form's validation (its schema). */
export function useDeferredValidation<V extends Validate>(
  load: () => Promise<V>,
): (context: { formData: FormData }) => ReturnType<V> {
  const validate = useRef<V | null>(null);
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
      (validate.current ? validate.current(formData) : toServer(formData)) as ReturnType<V>,
    [],
  );
}
