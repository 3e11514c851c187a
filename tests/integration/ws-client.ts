/** A websocket client of the upstream's /v1/ws for the integration tests: every message kept, waits on a condition. */
import WebSocket from "ws";

export type Msg = {
  op: string;
  code?: number;
  msg?: string;
  topic?: string;
  data?: any;
  topics?: string[];
  ts?: number;
};

export class Client {
  readonly msgs: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on("message", (raw) => {
      const m = JSON.parse(String(raw)) as Msg;
      this.msgs.push(m);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(m)) return true;
        w.resolve(m);
        return false;
      });
    });
  }
  static open(url: string, lang?: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: lang ? { lang } : {} });
      const c = new Client(ws);
      ws.once("open", () => resolve(c));
      ws.once("error", reject);
    });
  }
  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }
  /** The next message (from now, or already received after index `from`) matching pred. */
  next(pred: (m: Msg) => boolean, timeoutMs = 3000, from = this.msgs.length): Promise<Msg> {
    const seen = this.msgs.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("timed out waiting for a message")),
        timeoutMs,
      );
      this.waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }
  close(): void {
    this.ws.close();
  }
}
