/**
 * The answers of the endpoints the contract describes (`data` in @contract/api/*), as Fastify's
 * response schemas: the OpenAPI document publishes them, and with CHECK_ANSWERS (the test
 * harnesses) every such answer is checked before it is sent. An answer that drifts from its schema
 * (a field missing, of another type, or one the schema does not declare) is not sent: the request
 * fails with HTTP 500 and the log names the endpoint and the field, so a drift fails the test where
 * it happens. Without CHECK_ANSWERS an answer is serialised as it is, as before (production does
 * not pay for the check).
 */
import type { FastifySerializerCompiler } from "fastify/types/schema";
import type { ZodTypeAny } from "zod";
import { checkAnswer } from "@contract/check";

/**
 * Fastify's serializer for routes with a response schema: JSON.stringify, after the check when
 * `check` is on. The answer sent is the handler's own object either way.
 */
export function answerSerializer(check: boolean): FastifySerializerCompiler<ZodTypeAny> {
  return ({ schema, method, url }) => {
    if (!check) return (data: unknown) => JSON.stringify(data);
    const endpoint = `${method} ${url}`;
    return (data: unknown) => {
      checkAnswer(endpoint, schema, data);
      return JSON.stringify(data);
    };
  };
}
