/**
 * GET /live?topics=DAY_MARKET,KLINE.EURUSD,FOREX_TRADE,FOREX_CLOSED — the browser's event stream, as
 * a plain Node handler. First a `ready` event ({topics}: what this stream carries; private topics
 * need a session), then one snapshot event per topic, then conflated changes (event name = topic,
 * data = JSON), and a comment heartbeat every 15 s. The bytes come from the process's live bridge.
 *
 * Bounds: at most LIVE_MAX_PER_SESSION streams per session and LIVE_MAX_PER_IP per client address
 * (429 beyond, translated); a stream whose connection holds more than LIVE_MAX_BUFFER_BYTES unsent
 * is dropped (the browser reconnects and starts again from a snapshot).
 *
 * An event stream lives for minutes and receives a chunk several times a second; through the Remix
 * request handler every stream cost a full route match and its own web ReadableStream, which capped
 * how many streams one process could hold (see the live bench in README). Here the bridge's bytes go
 * straight to the connection (`res.write`), and a browser that does not read is measured by the
 * connection's own buffer.
 *
 * server.ts calls it through the built entry module, so that it shares the one live bridge of the
 * app's module graph (one upstream connection per process).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getBridge } from "./bridge.server";
import { admitLive, LIVE_HEADERS } from "./admit.server";
import { env } from "~/utils/env.server";

/** The request headers admission reads (session and CSRF cookies, the language). */
const KEPT_HEADERS = ["cookie", "accept-language"] as const;

function requestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const h of KEPT_HEADERS) {
    const v = req.headers[h];
    if (typeof v === "string") headers.set(h, v);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/live"}`, { headers });
}

async function answer(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(body);
}

export async function serveLive(
  req: IncomingMessage,
  res: ServerResponse,
  clientIp: string,
): Promise<void> {
  const bridge = getBridge();
  const admitted = await admitLive(requestOf(req), clientIp, bridge);
  if (!admitted.ok) return answer(res, admitted.response);
  if (res.destroyed) {
    admitted.release();
    return;
  }
  const maxBufferedBytes = env().liveMaxBufferBytes;
  // The body is the connection's bytes until it closes (no chunked framing): the bridge's chunks go
  // to the socket as they are, one write each, without the response object's per-write work. An
  // event stream has no natural end, so nothing is lost by not reusing the connection.
  res.useChunkedEncodingByDefault = false;
  res.shouldKeepAlive = false;
  const { Connection: _keepAlive, ...headers } = LIVE_HEADERS;
  res.writeHead(200, headers);
  res.flushHeaders();
  const socket = res.socket;
  if (!socket) {
    admitted.release();
    return;
  }
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    admitted.release();
    res.end();
  };
  const handle = bridge.openStream(admitted.topics, admitted.user, {
    write(chunk) {
      if (ended || socket.destroyed) return false;
      if (socket.writableLength > maxBufferedBytes) return false;
      socket.write(chunk);
      return true;
    },
    end,
  });
  res.on("close", () => {
    handle.close();
    end();
  });
}
