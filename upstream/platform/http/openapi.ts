/**
 * The OpenAPI 3.1 document of the upstream, generated from the routes' zod schemas: served at
 * GET /openapi.json, with a browsable reference at /docs. upstream/API.md stays the narrative guide.
 */
import type { FastifyInstance } from "fastify";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { contractValidatorCompiler } from "./route.js";
import { answerSerializer } from "./answers.js";

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
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
