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

/** An answer that does not match its endpoint's schema (CHECK_ANSWERS). */
export class AnswerDriftError extends Error {
  constructor(
    readonly endpoint: string,
    readonly field: string,
    detail: string,
  ) {
    super(`the answer of ${endpoint} drifts from the contract at ${field || "(root)"}: ${detail}`);
    this.name = "AnswerDriftError";
  }
}

/** A path written as the log and the message show it: data.list[3].Price. */
function pathText(path: readonly (string | number)[]): string {
  return path.reduce<string>(
    (out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${p}` : p),
    "",
  );
}

/**
 * The first field `sent` has that the schema's reading of it (`read`) dropped: a key the schema
 * does not declare (zod's objects drop unknown keys). Null when none.
 */
export function undeclaredField(
  sent: unknown,
  read: unknown,
  path: (string | number)[] = [],
): string | null {
  if (Array.isArray(sent) && Array.isArray(read)) {
    for (let i = 0; i < sent.length; i++) {
      const f = undeclaredField(sent[i], read[i], [...path, i]);
      if (f !== null) return f;
    }
    return null;
  }
  if (!sent || typeof sent !== "object" || !read || typeof read !== "object") return null;
  const kept = read as Record<string, unknown>;
  for (const [k, v] of Object.entries(sent as Record<string, unknown>)) {
    if (v === undefined) continue;
    if (!(k in kept)) return pathText([...path, k]);
    const f = undeclaredField(v, kept[k], [...path, k]);
    if (f !== null) return f;
  }
  return null;
}

/** Checks `answer` against `schema`; throws AnswerDriftError naming the first field that drifts. */
export function checkAnswer(endpoint: string, schema: ZodTypeAny, answer: unknown): void {
  const r = schema.safeParse(answer);
  if (!r.success) {
    // A union's failure lists each branch: name the success branch's first issue when the answer
    // claims success, else the union's own.
    const issue = firstIssue(r.error.issues, answer);
    throw new AnswerDriftError(endpoint, pathText(issue.path), issue.message);
  }
  const extra = undeclaredField(answer, r.data);
  if (extra !== null) throw new AnswerDriftError(endpoint, extra, "not declared by the contract");
}

interface Issue {
  path: (string | number)[];
  message: string;
  code: string;
  unionErrors?: { issues: Issue[] }[];
}

function firstIssue(issues: readonly Issue[], answer: unknown): Issue {
  const top = issues[0]!;
  if (top.code !== "invalid_union" || !top.unionErrors?.length) return top;
  const claimsOk = (answer as { code?: unknown } | null)?.code === 1;
  const branch = top.unionErrors[claimsOk ? 0 : top.unionErrors.length - 1]!;
  return branch.issues[0] ? firstIssue(branch.issues, answer) : top;
}

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
