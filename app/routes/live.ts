/**
 * GET /live?topics=DAY_MARKET,KLINE.EURUSD,FOREX_TRADE,FOREX_CLOSED — the browser's event stream.
 * First an `ready` event ({topics}: what this stream carries; private topics need a session), then
 * one snapshot event per topic, then conflated changes (event name = topic, data = JSON), and a
 * comment heartbeat every 15 s. The bytes come from the process's live bridge.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getBridge } from "~/live/bridge.server";
import { readLiveRequest } from "~/live/request.server";

/** A stream whose browser has not read this many chunks is dropped (it reconnects and resyncs). */
const MAX_QUEUED_CHUNKS = 256;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const bridge = getBridge();
  const req = await readLiveRequest(request, bridge);
  if (!req.ok) return req.response;
  // Either signal ends the stream: the connection's (server.ts) is reliable, the request's may not be.
  const signals = [context?.liveSignal, request.signal].filter((s): s is AbortSignal => !!s);
  let close: () => void = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      const handle = bridge.openStream(req.topics, req.user, {
        write(chunk) {
          if (ended) return false;
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
