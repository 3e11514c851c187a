/**
 * Client validation whose schema arrives after the first paint. A form's zod schema and
 * @conform-to/zod are 16 KiB of gzip; on a page whose budget cannot carry them (decision 0011) the
 * browser imports them once the page is interactive. Until then a submit goes to the server, which
 * validates with the same schema (its action), so nothing is accepted that the schema refuses; a
 * blur shows nothing and sends nothing until the schema is there. The constraint attributes
 * (required, minLength …) come from the loader, rendered the same with or without JavaScript.
 */
import { parse, type Submission } from "@conform-to/react";
import { useCallback, useEffect, useRef } from "react";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema's submission
type Validate = (formData: FormData) => Submission<any>;

/** conform's own field in a submit it makes itself (a blur's or an input's check, a list change). */
const INTENT = "__intent__";

/** A submit by the person: "not decided here", conform lets it through to the server. */
const toServer = (formData: FormData) => parse(formData, { resolve: () => ({ error: null }) });

/**
 * A check conform asks for itself (a field left, a value typed) before the schema is there: nothing
 * is decided and nothing is sent. Every field keeps the message it shows (`null` keeps it in
 * conform's report) and the request stays in the page: let through, it would post the check to the
 * server and hold the form busy (its submit button disabled) while the person taps it.
 */
function undecided(formData: FormData) {
  const kept: Record<string, null> = { "": null };
  for (const name of formData.keys()) if (name !== INTENT) kept[name] = null;
  return parse(formData, { resolve: () => ({ error: kept }) });
}

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
      (validate.current
        ? validate.current(formData)
        : formData.has(INTENT)
          ? undecided(formData)
          : toServer(formData)) as ReturnType<V>,
    [],
  );
}
