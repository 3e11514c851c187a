/**
 * Loopback ports for the services the scripts start (PostgreSQL, NATS, HAProxy, the upstream and
 * the web) and for the tests and benchmarks, which import this one definition from here: the
 * scripts are product code and may not import from tests/.
 */
import net from "node:net";

/**
 * A loopback TCP port that is free right now: the kernel picks it for a listener that is closed at
 * once. Another process may take it before the caller binds it; on a test machine that is rare.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}
