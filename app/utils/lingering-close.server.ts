/**
 * Lingering close of a connection whose request body was refused before it was read to its end
 * (a 413 answered from the declared length, or after the first FORM_MAX_BYTES).
 *
 * Closing such a socket at once leaves the client's unread bytes in the kernel, which answers them
 * with a reset: a client still sending then fails with EPIPE or ECONNRESET and may never read the
 * 413 page it was sent. Instead, as nginx does, the answer is sent, the sending side is closed
 * (FIN), and what the client still sends is read and thrown away until it is done, then the socket
 * closes. The cost to the server is bounded:
 *
 * - LINGER_MAX_BYTES read at most, then the socket is closed whatever the client still sends;
 * - LINGER_MAX_MS in all after the answer, and LINGER_IDLE_MS without a byte, then likewise.
 *
 * A client that keeps within those bounds always reads its answer.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/** Bytes discarded at most after the answer (64 MiB: many times any form's limit). */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
/** Time the connection lingers at most after the answer. */
const LINGER_MAX_MS = 30_000;
/** Time without a byte from the client after which the lingering connection closes. */
const LINGER_IDLE_MS = 5_000;

interface LingerLimits {
  maxBytes: number;
  maxMs: number;
  idleMs: number;
}

const DEFAULT_LIMITS: LingerLimits = {
  maxBytes: LINGER_MAX_BYTES,
  maxMs: LINGER_MAX_MS,
  idleMs: LINGER_IDLE_MS,
};

type LingeringSocket = Socket & { destroySoon?: () => void };

/**
 * Arms the lingering close for the connection of `req`, whose answer is about to be written with
 * `Connection: close` before its body was read to its end.
 *
 * From now on the rest of the body is nobody's: whoever was reading it (the form pipeline, which
 * stopped at its limit) is detached, and the request flows, counted and dropped, so that the HTTP
 * parser keeps reading the connection. Node's HTTP server ends such a connection with
 * `socket.destroySoon()` once the answer is written: that call is replaced, for this socket only,
 * by the lingering close.
 */
export function lingerAfterAnswer(
  req: IncomingMessage,
  limits: LingerLimits = DEFAULT_LIMITS,
): void {
  const socket = req.socket as LingeringSocket;
  if (socket.destroyed) return;
  let read = 0;
  const close = () => {
    if (!socket.destroyed) socket.destroy();
  };
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    read += chunk.byteLength;
    if (read > limits.maxBytes) close();
  });
  req.resume();

  // Once the whole body has arrived, the socket closes as soon as the answer has left.
  const closeWhenFlushed = () => {
    if (socket.writableFinished) close();
    else socket.once("finish", close);
  };

  socket.destroySoon = () => {
    // Our side is done: FIN once the answer is flushed.
    socket.end();
    if (req.complete) return closeWhenFlushed();
    const deadline = setTimeout(close, limits.maxMs);
    deadline.unref();
    socket.once("close", () => clearTimeout(deadline));
    socket.setTimeout(limits.idleMs, close);
    req.once("end", closeWhenFlushed);
    socket.once("end", close);
  };
}
