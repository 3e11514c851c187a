/** What server.ts hands every loader and action (getLoadContext). */
import type { AppLoadContext } from "@remix-run/node";

declare module "@remix-run/node" {
  /** Single fetch types for loaders and actions (remix.config.js has v3_singleFetch on). */
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    /** The CSP nonce of this response (also given to <Scripts> and inline scripts). */
    nonce: string;
    /** URL paths of the routes this build has ("/", "/trade", "/mine/history", ...). */
    routePaths: string[];
  }
}

/** Whether the build has a route at this path (links to routes that do not exist are not shown). */
export function hasRoute(context: AppLoadContext | undefined, path: string): boolean {
  const paths = context?.routePaths;
  if (!paths) return false;
  return paths.includes(path);
}
