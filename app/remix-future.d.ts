// Single fetch typing (remix.config.js turns v3_singleFetch on): loader/action types infer from
// `data()` and plain objects. Added by the trading helper; merge-safe if declared elsewhere too.
import "@remix-run/node";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
