import { createContext, useContext } from "react";

/** The CSP nonce of the response being rendered on the server (empty in the browser). */
export const NonceContext = createContext<string>("");

export function useNonce(): string {
  return useContext(NonceContext);
}
