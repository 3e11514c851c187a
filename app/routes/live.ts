/**
 * GET /live?topics=DAY_MARKET,KLINE.EURUSD,FOREX_TRADE,FOREX_CLOSED — the browser's event stream.
 * First an `ready` event ({topics}: what this stream carries; private topics need a session), then
 * one snapshot event per topic, then conflated changes (event name = topic, data = JSON), and a
 * comment heartbeat every 15 s. The bytes come from the process's live bridge.
 *
 * Bounds: at most LIVE_MAX_PER_SESSION streams per session and LIVE_MAX_PER_IP per client address
 * (429 beyond, translated); a stream whose browser leaves more than LIVE_MAX_BUFFER_BYTES unread
 * is dropped (the browser reconnects and starts again from a snapshot).
 *
 * The production server (server.ts) answers /live with the plain Node handler of
 * app/live/node.server.ts instead, which writes the same bytes straight to the connection; this route
 * serves every other host of the app (the development server, the route's own tests).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBridge } from "~/live/bridge.server";
import { admitLive, LIVE_HEADERS } from "~/live/admit.server";
import { env } from "~/utils/env.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Set by server.ts for GET /live: bytes written to the connection and not yet sent. */
    liveBufferedBytes?: () => number;
  }
}

/** Chunks the ReadableStream itself may hold before the stream counts as unread. */
const MAX_QUEUED_CHUNKS = 256;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const bridge = getBridge();
  const ip = request.headers.get("x-tradepost-client-ip") || "unknown";
  const admitted = await admitLive(request, ip, bridge);
  if (!admitted.ok) return admitted.response;
  const maxBufferedBytes = env().liveMaxBufferBytes;
  const buffered = context?.liveBufferedBytes ?? (() => 0);
  // Either signal ends the stream: the connection's (server.ts) is reliable, the request's may not be.
  const signals = [context?.liveSignal, request.signal].filter((s): s is AbortSignal => !!s);
  let close: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        admitted.release();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      const handle = bridge.openStream(admitted.topics, admitted.user, {
        write(chunk) {
          if (ended) return false;
          // The adapter copies chunks to the connection without waiting for it to drain, so the
          // connection's own buffer is what shows a browser that does not read.
          if (buffered() > maxBufferedBytes) return false;
          controller.enqueue(chunk);
          return (controller.desiredSize ?? 0) > -MAX_QUEUED_CHUNKS;
        },
        end,
      });
      close = () => {
        handle.close();
        end();
      };
      for (const signal of signals) {
        if (signal.aborted) close();
        else signal.addEventListener("abort", close, { once: true });
      }
    },
    cancel() {
      close();
    },
  });
  return new Response(body, { status: 200, headers: LIVE_HEADERS });
}
