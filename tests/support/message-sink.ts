/**
 * Where the test runs' verification codes go: a real SMTP server (smtp-server, each mail parsed
 * with mailparser) for the upstream's SMTP_URL, and an HTTP endpoint for its SMS_WEBHOOK_URL. The
 * product delivers codes to it exactly as it delivers them to a broker's mail server and SMS
 * gateway, in production mode, where the dev outbox does not exist.
 *
 * HTTP:
 *   POST /sms                  the SMS webhook: JSON { to, text } (what webhookSmsSender sends)
 *   GET  /messages?to=ADDRESS  the messages received for an address, oldest first
 *   GET  /healthz              200 once both servers listen
 *
 * In a test process: `startMessageSink()`. As a process of its own (Playwright's web servers):
 * `tsx tests/support/message-sink.ts SMTP_PORT HTTP_PORT`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface SinkMessage {
  channel: "email" | "sms";
  /** The e-mail address (lower case), or the mobile number as sent ("+" country code, digits). */
  to: string;
  subject: string;
  text: string;
  /** The SMS webhook call's Authorization header (null: none; e-mail: always null). */
  authorization: string | null;
  receivedAt: number;
}

export interface MessageSink {
  /** For the upstream's SMTP_URL. */
  smtpUrl: string;
  /** For the upstream's SMS_WEBHOOK_URL. */
  smsWebhookUrl: string;
  /** Base of the HTTP endpoint (GET /messages?to=). */
  httpUrl: string;
  messages(to: string): SinkMessage[];
  close(): Promise<void>;
}

/** The largest body the sink reads (a code message is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

const key = (to: string) => to.trim().toLowerCase();

export async function startMessageSink(
  ports: { smtp?: number; http?: number } = {},
): Promise<MessageSink> {
  const received = new Map<string, SinkMessage[]>();
  const add = (m: Omit<SinkMessage, "receivedAt">) => {
    const list = received.get(key(m.to)) ?? [];
    list.push({ ...m, receivedAt: Date.now() });
    received.set(key(m.to), list);
  };

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: MAX_BODY_BYTES,
    onData(stream, session, done) {
      simpleParser(stream).then(
        (mail) => {
          for (const rcpt of session.envelope.rcptTo)
            add({
              channel: "email",
              to: rcpt.address,
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              authorization: null,
            });
          done();
        },
        (err: Error) => done(err),
      );
    },
  });

  const web = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sink");
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && url.pathname === "/healthz") return answer(200, { ok: true });
    if (req.method === "GET" && url.pathname === "/messages")
      return answer(200, received.get(key(url.searchParams.get("to") ?? "")) ?? []);
    if (req.method === "POST" && url.pathname === "/sms") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => {
        body += chunk;
        if (body.length > MAX_BODY_BYTES) req.destroy();
      });
      req.on("end", () => {
        try {
          const sms = JSON.parse(body) as { to?: unknown; text?: unknown };
          if (typeof sms.to !== "string" || typeof sms.text !== "string")
            return answer(400, { error: "to and text are required" });
          add({
            channel: "sms",
            to: sms.to,
            subject: "",
            text: sms.text,
            authorization: req.headers.authorization ?? null,
          });
          answer(202, { accepted: true });
        } catch {
          answer(400, { error: "not JSON" });
        }
      });
      return;
    }
    answer(404, { error: "not found" });
  });

  await new Promise<void>((resolve, reject) => {
    smtp.server.once("error", reject);
    smtp.listen(ports.smtp ?? 0, "127.0.0.1", () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    web.once("error", reject);
    web.listen(ports.http ?? 0, "127.0.0.1", () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const httpUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    smsWebhookUrl: `${httpUrl}/sms`,
    httpUrl,
    messages: (to) => [...(received.get(key(to)) ?? [])],
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      web.closeAllConnections();
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

/** The 6-digit code of a message. */
export function codeIn(m: SinkMessage): string | null {
  return /\b(\d{6})\b/.exec(m.text)?.[1] ?? null;
}

/**
 * Polls a sink's HTTP endpoint (at `httpUrl`) until a message to `to` that `accept` takes has
 * arrived, and answers its code; throws after `timeoutMs`.
 */
export async function waitForCode(
  httpUrl: string,
  to: string,
  opts: { timeoutMs?: number; accept?: (m: SinkMessage) => boolean } = {},
): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  let last: SinkMessage[] = [];
  while (Date.now() < deadline) {
    const res = await fetch(`${httpUrl}/messages?to=${encodeURIComponent(to)}`);
    last = (await res.json()) as SinkMessage[];
    const match = last.filter(opts.accept ?? (() => true)).at(-1);
    const code = match ? codeIn(match) : null;
    if (code) return code;
    // Polling interval of this bounded wait (the deadline above).
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code sent to ${to}; received: ${JSON.stringify(last)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
  const sink = await startMessageSink({ smtp: smtpPort, http: httpPort });
  console.log(`message sink: SMTP ${sink.smtpUrl}, HTTP ${sink.httpUrl}`);
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.on(sig, () => void sink.close().then(() => process.exit(0)));
}
