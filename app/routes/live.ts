/**
 * GET /live?topics=DAY_MARKET,KLINE.EURUSD,FOREX_TRADE,FOREX_CLOSED — the browser's event stream.
 * First an `ready` event ({topics}: what this stream carries; private topics need a session), then
 * one snapshot event per topic, then conflated changes (event name = topic, data = JSON), and a
 * comment heartbeat every 15 s. The bytes come from the process's live bridge.
 *
 * Bounds: at most LIVE_MAX_PER_SESSION streams per session and LIVE_MAX_PER_IP per client address
 * (429 beyond, translated); a stream whose browser leaves more than LIVE_MAX_BUFFER_BYTES unread
 * is dropped (the browser reconnects and starts again from a snapshot).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBridge } from "~/live/bridge.server";
import { getStreamLimits } from "~/live/limits.server";
import { liveRefusal, readLiveRequest } from "~/live/request.server";
import { env } from "~/utils/env.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Set by server.ts for GET /live: bytes written to the connection and not yet sent. */
    liveBufferedBytes?: () => number;
  }
}

/** Chunks the ReadableStream itself may hold before the stream counts as unread. */
const MAX_QUEUED_CHUNKS = 256;
/** Seconds a refused browser is asked to wait before opening another stream. */
const LIMITED_RETRY_S = 30;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const bridge = getBridge();
  const req = await readLiveRequest(request, bridge);
  if (!req.ok) return req.response;
  const ip = request.headers.get("x-tradepost-client-ip") || "unknown";
  const slot = getStreamLimits().admit(ip, req.sessionKey);
  if (!slot.ok)
    return liveRefusal(
      request,
      429,
      slot.reason === "session" ? "too_many_streams_session" : "too_many_streams_ip",
      { max: slot.limit },
      { "Retry-After": String(LIMITED_RETRY_S) },
    );
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
        slot.release();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      const handle = bridge.openStream(req.topics, req.user, {
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
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    },
  });
}
