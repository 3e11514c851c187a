/**
 * The AsyncAPI 3.0 document of the websocket (GET /asyncapi.json), built from the schemas of
 * contract/ws.ts: every message a client sends (ping, login, logout, subscribe, unsubscribe), every
 * answer, and each topic's pushes with their data. The operations are the upstream's: it receives
 * the client's messages and sends the answers and pushes. Served beside /openapi.json.
 */
import { z, type ZodTypeAny } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import {
  ClientMessageSchema,
  PUSH_DATA,
  pushMessage,
  ServerMessageSchema,
  WS_PATH,
} from "@contract/ws";
import {
  KLINE_TOPIC_PREFIX,
  PRIVATE_TOPICS,
  WS_HEARTBEAT_MS,
  WS_IDLE_CLOSE_MS,
  WS_MISSED_PINGS,
} from "@contract/constants";

interface Message {
  name: string;
  title: string;
  summary: string;
  payload: Record<string, unknown>;
}

function payloadOf(schema: ZodTypeAny): Record<string, unknown> {
  const out = zodToJsonSchema(schema, { target: "jsonSchema7", $refStrategy: "none" });
  delete (out as { $schema?: string }).$schema;
  return out as Record<string, unknown>;
}

/** A message's key in the document: letters and digits only (KLINE.{code} → KLINE_code). */
const keyOf = (name: string) => name.replace(/[^A-Za-z0-9]+/g, "_").replace(/_$/, "");

/** What the client sends: one message per `op`. */
function clientMessages(): Message[] {
  return ClientMessageSchema.options.map((o) => {
    const op = o.shape.op.value as string;
    return {
      name: op,
      title: op,
      summary: o.description ?? op,
      payload: payloadOf(o),
    };
  });
}

/** What the upstream answers (every server message but pushes). */
function answerMessages(): Message[] {
  return ServerMessageSchema.options
    .filter((o) => !isPush(o))
    .map((o) => {
      const op = o.shape.op as ZodTypeAny & { value?: string; options?: string[] };
      const name = op.value ?? op.options!.join("_");
      return {
        name: `${name}_answer`,
        title: `${name} (answer)`,
        summary: o.description ?? name,
        payload: payloadOf(o),
      };
    });
}

const isPush = (o: { shape: { op: ZodTypeAny } }) =>
  "value" in o.shape.op && o.shape.op.value === "push";

/** One message per topic: `{op: "push", topic, data}` with that topic's data. */
function pushMessages(): Message[] {
  return Object.entries(PUSH_DATA).map(([topic, data]: [string, ZodTypeAny]) => ({
    name: `push_${keyOf(topic)}`,
    title: `${topic} push`,
    summary: `${data.description ?? topic}${PRIVATE_TOPICS.includes(topic) ? " (private: needs login)" : ""}`,
    payload: payloadOf(
      pushMessage(data).extend({
        topic: topic.includes("{code}")
          ? z
              .string()
              .startsWith(KLINE_TOPIC_PREFIX)
              .describe(`${topic}: {code} an instrument's code`)
          : z.literal(topic),
      }),
    ),
  }));
}

export function asyncApiDocument(): Record<string, unknown> {
  const client = clientMessages();
  const answers = answerMessages();
  const pushes = pushMessages();
  const all = [...client, ...answers, ...pushes];
  const ref = (m: Message) => ({ $ref: `#/channels/ws/messages/${keyOf(m.name)}` });
  return {
    asyncapi: "3.0.0",
    info: {
      title: "Tradepost reference upstream websocket",
      version: "1",
      description:
        `JSON text frames at ${WS_PATH}. A client pings every ${WS_HEARTBEAT_MS / 1000} s and ` +
        `reconnects after ${WS_MISSED_PINGS} unanswered pings; the upstream closes a connection ` +
        `that sent nothing for ${WS_IDLE_CLOSE_MS / 1000} s. A subscription is answered, then ` +
        "each topic's current state is pushed at once, then its changes. Private topics need a " +
        "login first; a revoked session ends the login (revoked) and drops them. The HTTP API " +
        "is described by /openapi.json; upstream/API.md is the narrative guide.",
    },
    defaultContentType: "application/json",
    channels: {
      ws: {
        address: WS_PATH,
        title: "The upstream's websocket",
        messages: Object.fromEntries(all.map((m) => [keyOf(m.name), m])),
      },
    },
    operations: {
      receiveClientMessages: {
        action: "receive",
        channel: { $ref: "#/channels/ws" },
        summary: "What a client sends",
        messages: client.map(ref),
      },
      sendAnswers: {
        action: "send",
        channel: { $ref: "#/channels/ws" },
        summary: "The answers to a client's messages",
        messages: answers.map(ref),
      },
      sendPushes: {
        action: "send",
        channel: { $ref: "#/channels/ws" },
        summary: "Pushes of the topics a client subscribed to",
        messages: pushes.map(ref),
      },
    },
  };
}
