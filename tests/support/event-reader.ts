/**
 * Reads server-sent events from a fetch body (the web's /live): `next` waits, bounded, for an event
 * that matches; `ended` waits, bounded, for the stream's end. One read is in flight at a time and
 * kept across waits, so no chunk is lost when a wait times out.
 */
export interface SseEvent {
  event: string;
  data: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

export class EventReader {
  private buf = "";
  private readonly dec = new TextDecoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private reading: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
  private done = false;
  readonly events: SseEvent[] = [];

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** Reads one chunk within `ms`: false when none came in time. */
  private async readOnce(ms: number): Promise<boolean> {
    this.reading ??= this.reader.read();
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([
      this.reading,
      new Promise<null>((ok) => (timer = setTimeout(() => ok(null), ms))),
    ]);
    clearTimeout(timer);
    if (r === null) return false;
    this.reading = null;
    if (r.done) {
      this.done = true;
      return true;
    }
    this.buf += this.dec.decode(r.value, { stream: true });
    let cut: number;
    while ((cut = this.buf.indexOf("\n\n")) >= 0) {
      const block = this.buf.slice(0, cut);
      this.buf = this.buf.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event && data) this.events.push({ event, data: JSON.parse(data), at: Date.now() });
    }
    return true;
  }

  async next(match: (e: SseEvent) => boolean, timeoutMs: number): Promise<SseEvent> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found;
      if (this.done) throw new Error("the stream ended");
      const left = end - Date.now();
      if (left <= 0) throw new Error(`no matching event in ${timeoutMs} ms`);
      await this.readOnce(left);
    }
  }

  /** Resolves once the stream has ended (its server went away); throws after `timeoutMs`. */
  async ended(timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.done) {
      const left = end - Date.now();
      if (left <= 0) throw new Error(`the stream did not end within ${timeoutMs} ms`);
      await this.readOnce(left).catch(() => {
        // A connection torn down (the server killed) ends the stream too.
        this.done = true;
      });
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => undefined);
  }
}
