/**
 * Server rendering: the language's catalog of translations (language detected by
 * app/i18n.server.ts), the CSP nonce from server.ts on every script, full HTML for bots and streamed
 * HTML for browsers.
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { detectLang, catalogFor } from "./i18n.server";
import { Translations } from "./translation";
import { NonceContext } from "./components/nonce";
import { resumePendingRevocations } from "./utils/revocations.server";

export const streamTimeout = 5000;

/** GET /live for server.ts, outside the request handler (app/live/node.server.ts). */
export { serveLive } from "./live/node.server";

// Sign-outs an earlier run could not confirm with the upstream are retried from the start.
resumePendingRevocations();

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const lng = await detectLang(request);
  const catalog = catalogFor(lng);
  const nonce = loadContext?.nonce ?? "";
  const callback = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <Translations catalog={catalog}>
          <RemixServer context={remixContext} url={request.url} nonce={nonce} />
        </Translations>
      </NonceContext.Provider>,
      {
        nonce,
        [callback]: () => {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  // A 4xx (no such page, a bad method) is the visitor's doing and already answered with a translated
  // page; only server faults belong in the error log.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  // An unreachable upstream is answered with the "temporarily unavailable" page; the supervisor and
  // the live bridge log the outage itself, once, instead of once per page.
  if (isRouteErrorResponse(error) && error.status === 503) return;
  if (error instanceof Response && error.status === 503) return;
  console.error(error);
};
