/**
 * The OpenAPI 3.1 document of the upstream, generated from the routes' zod schemas: served at
 * GET /openapi.json, with a browsable reference at /docs. upstream/API.md stays the narrative guide.
 */
import type { FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { ZodTypeAny } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { contractValidatorCompiler } from "./route.js";
import { answerSerializer } from "./answers.js";
import { asyncApiDocument } from "../ws/asyncapi.js";
import { translate } from "../i18n.js";
import { checkAnswer } from "@contract/check";
import { loadApiMdExamples, routeKey } from "./api-examples.js";
import { CODE } from "@contract/envelope";

/**
 * A route that answers a file (an image) names its media type as `file` in its schema: the document
 * describes its 200 as that file and its 404, instead of a JSON answer.
 */
export const fileAnswer = (media: string): Record<string, unknown> => ({ file: media });

/** A route's schema as the routes declare it: zod parts, a file's media type, and the document's. */
interface RouteSchema {
  body?: ZodTypeAny;
  querystring?: ZodTypeAny;
  params?: ZodTypeAny;
  headers?: ZodTypeAny;
  response?: Record<string, ZodTypeAny>;
  file?: string;
  hide?: boolean;
  [doc: string]: unknown;
}

/**
 * A zod schema as JSON Schema, the dialect of OpenAPI 3.1 (a nullable value is `type: [T, "null"]`,
 * `null` is `type: "null"`); nothing is moved behind a reference.
 */
function jsonSchemaOf(schema: ZodTypeAny): Record<string, unknown> {
  const out = zodToJsonSchema(schema, { target: "jsonSchema7", $refStrategy: "none" });
  delete (out as { $schema?: string }).$schema;
  return out as Record<string, unknown>;
}

/** The header of a rate limit's answer. */
const RETRY_AFTER = {
  type: "integer",
  minimum: 1,
  description: "seconds until the limit lets the request through again",
};

/** What each refusal's envelope looks like (in English; `msg` follows the request's `lang`). */
const REFUSAL_EXAMPLES: Record<string, () => Record<string, unknown>> = {
  400: () => ({
    code: CODE.FAIL,
    msg: translate("en", "invalid_input", { field: "account" }),
    data: null,
  }),
  401: () => ({
    code: CODE.SESSION_INVALID,
    msg: translate("en", "operator_unauthorized"),
    data: null,
  }),
  403: () => ({
    code: CODE.FORBIDDEN,
    msg: translate("en", "operator_forbidden", { role: "viewer" }),
    data: null,
  }),
  429: () => ({ code: CODE.RATE_LIMITED, msg: translate("en", "rate_limited"), data: null }),
};

/** An example of a success: API.md's answer, when it matches the endpoint's schema. */
function successExample(
  examples: Map<string, unknown>,
  method: string,
  url: string,
  answer: ZodTypeAny,
): unknown {
  const example = examples.get(routeKey(method, url));
  if (example === undefined) return undefined;
  try {
    checkAnswer(`${method} ${url}`, answer, example);
    return example;
  } catch {
    // tests/unit/api-examples.test.ts names it; the document shows none meanwhile.
    return undefined;
  }
}

/** The document's view of a route's schema (@fastify/swagger's `transform`). */
const documentOf =
  (examples: Map<string, unknown>) =>
  ({ schema, url, route }: { schema: unknown; url: string; route: { method: unknown } }) => {
    const rs = (schema ?? {}) as RouteSchema;
    if (rs.hide) return { schema: { hide: true }, url };
    const { body, querystring, params, headers, response, file, ...doc } = rs;
    const out: Record<string, unknown> = { ...doc };
    for (const [k, v] of Object.entries({ body, querystring, params, headers }))
      if (v) out[k] = jsonSchemaOf(v);
    if (file)
      out.response = {
        200: {
          description: `the file (${file})`,
          content: { [file]: { schema: { type: "string", format: "binary" } } },
        },
        404: { description: "no such file" },
      };
    else if (response)
      out.response = Object.fromEntries(
        Object.entries(response).map(([status, s]) => {
          const example =
            status === "200"
              ? successExample(examples, String(route.method), url, s)
              : REFUSAL_EXAMPLES[status]?.();
          const json = jsonSchemaOf(s);
          const withExample = example === undefined ? json : { ...json, examples: [example] };
          return [
            status,
            status === "429"
              ? { ...withExample, headers: { "Retry-After": RETRY_AFTER } }
              : withExample,
          ];
        }),
      );
    return { schema: out, url };
  };

/**
 * Installs the zod validator, the answers' serializer (checking each answer against its schema when
 * `checkAnswers`: answers.ts) and the document; call before any route registers.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  o: { checkAnswers: boolean },
): Promise<void> {
  app.setValidatorCompiler(contractValidatorCompiler);
  app.setSerializerCompiler(answerSerializer(o.checkAnswers));
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Tradepost reference upstream API",
        version: "1",
        description:
          "Every response is an envelope {code, msg, data} (code 1 success, 0 refused, 404 not found, 429 rate limited, " +
          "500 internal, 999 session invalid). The narrative guide with examples and refusals is upstream/API.md.",
      },
      tags: [
        { name: "identity", description: "Sign-up, sign-in, codes, captcha, passwords" },
        { name: "settings", description: "Public settings and the area list" },
        { name: "market", description: "Instruments, quotes, candles, logos" },
        { name: "trading", description: "Orders, positions and account figures" },
        { name: "verification", description: "Real-name verification" },
        { name: "company", description: "Companies (company mode) and feedback" },
        { name: "content", description: "News and announcements, and their editors" },
        {
          name: "ranking",
          description: "The trader ranking (strategy traders of the simulated market)",
        },
        {
          name: "copy",
          description: "Copy trading: providers, copies, their positions and money",
        },
        { name: "dev", description: "Development helpers (only while DEV_OUTBOX is on)" },
      ],
    },
    transform: documentOf(loadApiMdExamples()),
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  // The websocket's messages (contract/ws.ts), as AsyncAPI 3.0.
  const asyncApi = asyncApiDocument();
  app.get("/asyncapi.json", { schema: { hide: true } }, async () => asyncApi);
}
