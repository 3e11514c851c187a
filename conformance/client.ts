/**
 * The conformance kit's client of a back end: calls an endpoint of the contract over HTTP exactly as
 * the web does (headers `lang`, `authorization`, a form-urlencoded body, `t` on GETs) and checks the
 * answer against the endpoint's schema, and reads the websocket checking every frame. It imports the
 * contract only: the back end under test is a black box.
 */
import WebSocket from "ws";
import type { z, ZodTypeAny } from "zod";
import { refusalEnvelope, type EndpointDef, pathOf } from "@contract/api/endpoint";
import {
  AnswerDriftError,
  checkAnswer,
  checkFrame,
  fieldUnder,
  undeclaredField,
} from "@contract/check";
import { CODE, type Envelope } from "@contract/envelope";
import { IDEMPOTENCY_HEADER } from "@contract/constants";
import { WS_PATH, type ServerMessage } from "@contract/ws";

/** A check that did not hold: what the kit prints after the check's name. */
export class CheckFailed extends Error {}

/** An answer as the kit reads it: the HTTP status, the envelope and its headers. */
export interface Answer<D> {
  status: number;
  envelope: Envelope<D | null>;
  headers: Headers;
}

export interface CallOptions {
  token?: string | null;
  idempotencyKey?: string;
  pathParams?: Record<string, string | number>;
  /** A multipart body (an upload) instead of the form. */
  form?: FormData;
}

type Params = Record<string, string | number | undefined>;

/** Fields the contract does not declare, seen in answers: reported, never a failure. */
export type Notes = string[];

export class Client {
  constructor(
    readonly base: string,
    readonly notes: Notes,
  ) {}

  /**
   * Calls `def` and checks its answer: a success's data against the endpoint's schema (tolerantly:
   * fields the contract does not know become notes), a refusal against the refusal envelope.
   */
  async call<D extends EndpointDef & { data: ZodTypeAny }>(
    def: D,
    params: Params = {},
    o: CallOptions = {},
  ): Promise<Answer<z.output<D["data"]>>> {
    const name = `${def.method} ${def.path}`;
    const url = new URL(this.base + pathOf(def, o.pathParams));
    const headers: Record<string, string> = { lang: "en", accept: "application/json" };
    if (o.token) headers.authorization = o.token;
    if (o.idempotencyKey) headers[IDEMPOTENCY_HEADER] = o.idempotencyKey;
    const fields = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][];
    let body: string | FormData | undefined;
    if (def.method === "GET") {
      for (const [k, v] of fields) url.searchParams.set(k, String(v));
      url.searchParams.set("t", String(Date.now()));
    } else if (o.form) body = o.form;
    else {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(fields.map(([k, v]) => [k, String(v)])).toString();
    }
    const res = await fetch(url, { method: def.method, headers, body });
    const text = await res.text();
    let envelope: Envelope<unknown>;
    try {
      envelope = JSON.parse(text) as Envelope<unknown>;
    } catch {
      throw new CheckFailed(`${name} answered HTTP ${res.status} that is not JSON`);
    }
    if (envelope?.code === CODE.OK) this.check(name, def.data, envelope.data, "data");
    else this.check(name, refusalEnvelope, envelope, "");
    return {
      status: res.status,
      envelope: envelope as Envelope<z.output<D["data"]>>,
      headers: res.headers,
    };
  }

  /** Calls `def` and requires success (code 1); its data. */
  async ok<D extends EndpointDef & { data: ZodTypeAny }>(
    def: D,
    params: Params = {},
    o: CallOptions = {},
  ): Promise<z.output<D["data"]>> {
    const a = await this.call(def, params, o);
    if (a.envelope.code !== CODE.OK)
      throw new CheckFailed(
        `${def.method} ${def.path} refused (HTTP ${a.status}, code ${a.envelope.code}): ${a.envelope.msg}`,
      );
    return a.envelope.data as z.output<D["data"]>;
  }

  /** Checks `value` against `schema`; a drift fails, naming the field; undeclared fields are noted. */
  check(name: string, schema: ZodTypeAny, value: unknown, at: string): void {
    let read: unknown;
    try {
      read = checkAnswer(name, schema, value, { strict: false });
    } catch (err) {
      if (!(err instanceof AnswerDriftError)) throw err;
      throw new CheckFailed(
        `${name}: ${fieldUnder(at, err.field)} does not match the contract: ${err.detail}`,
      );
    }
    const extra = undeclaredField(value, read);
    if (extra !== null) this.notes.push(`${name}: ${fieldUnder(at, extra)} is not in the contract`);
  }
}

/**
 * A websocket to the back end: every frame it receives is checked against contract/ws.ts (a drift
 * is kept and fails the next wait); `next` waits for a frame that satisfies a test.
 */
export class Socket {
  private readonly frames: ServerMessage[] = [];
  private readonly waiters: { test: (m: ServerMessage) => boolean; done: () => void }[] = [];
  private drift: string | null = null;

  private constructor(private readonly ws: WebSocket) {
    ws.on("message", (raw) => this.receive(String(raw)));
  }

  static async open(base: string): Promise<Socket> {
    const ws = new WebSocket(base.replace(/^http/, "ws") + WS_PATH, { headers: { lang: "en" } });
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    return new Socket(ws);
  }

  private receive(text: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(text);
    } catch {
      this.drift ??= `a websocket frame is not JSON: ${text.slice(0, 80)}`;
      return;
    }
    try {
      checkFrame(frame, { strict: false });
    } catch (err) {
      if (!(err instanceof AnswerDriftError)) throw err;
      this.drift ??= `${err.endpoint}: ${err.field || "(root)"} does not match the contract: ${err.detail}`;
      return;
    }
    const m = frame as ServerMessage;
    this.frames.push(m);
    for (const w of [...this.waiters]) if (w.test(m)) w.done();
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The first frame (received since the socket opened) that satisfies `test`, within `ms`. */
  async next(
    what: string,
    test: (m: ServerMessage) => boolean,
    ms = 10_000,
  ): Promise<ServerMessage> {
    const until = Date.now() + ms;
    for (;;) {
      if (this.drift) throw new CheckFailed(this.drift);
      const found = this.frames.find(test);
      if (found) return found;
      const left = until - Date.now();
      if (left <= 0) throw new CheckFailed(`no ${what} within ${ms / 1000} s`);
      await new Promise<void>((resolve) => {
        const w = { test, done: () => finish() };
        const timer = setTimeout(() => finish(), Math.min(left, 250));
        const finish = () => {
          clearTimeout(timer);
          const i = this.waiters.indexOf(w);
          if (i >= 0) this.waiters.splice(i, 1);
          resolve();
        };
        this.waiters.push(w);
      });
    }
  }

  /** A drift seen on the socket so far, as a failure. */
  assertConforming(): void {
    if (this.drift) throw new CheckFailed(this.drift);
  }

  close(): void {
    this.ws.close();
  }
}
