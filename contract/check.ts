/**
 * Checking an answer or a websocket frame against the contract's schemas, shared by the upstream
 * (CHECK_ANSWERS: upstream/platform/http/answers.ts, its websocket hub), the web (what it reads from
 * a back end: app/upstream/client.server.ts) and the conformance kit (conformance/).
 *
 * Strict (the upstream's own check and the kit): a field missing or of another type, and a field the
 * schema does not declare, are drifts. Tolerant (the web reading a foreign back end): fields the
 * contract does not know are read past.
 */
import type { ZodTypeAny } from "zod";
import { pushDataOf, ServerMessageSchema } from "./ws";

/** An answer or a frame that does not match its schema in the contract. */
export class AnswerDriftError extends Error {
  constructor(
    readonly endpoint: string,
    readonly field: string,
    readonly detail: string,
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
export function checkAnswer(
  endpoint: string,
  schema: ZodTypeAny,
  answer: unknown,
  o: { strict?: boolean } = {},
): unknown {
  const r = schema.safeParse(answer);
  if (!r.success) {
    // A union's failure lists each branch: name the success branch's first issue when the answer
    // claims success, else the union's own.
    const issue = firstIssue(r.error.issues, answer);
    throw new AnswerDriftError(endpoint, pathText(issue.path), issue.message);
  }
  if (o.strict === false) return r.data;
  const extra = undeclaredField(answer, r.data);
  if (extra !== null) throw new AnswerDriftError(endpoint, extra, "not declared by the contract");
  return r.data;
}

/** A field's path under `at` as the messages name it: data.x, data[0].x, or `at` for the root. */
export function fieldUnder(at: string, field: string): string {
  if (!at) return field || "(root)";
  if (!field) return at;
  return field.startsWith("[") ? at + field : `${at}.${field}`;
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
 * Checks a websocket frame the upstream sends against contract/ws.ts: the message, and a push's
 * data against its topic's schema. Throws AnswerDriftError naming the field.
 */
export function checkFrame(frame: unknown, o: { strict?: boolean } = {}): void {
  checkAnswer("ws", ServerMessageSchema, frame, o);
  const push = frame as { op: string; topic?: string; data?: unknown };
  if (push.op !== "push") return;
  const data = pushDataOf(push.topic ?? "");
  if (!data) throw new AnswerDriftError(`ws push ${push.topic}`, "topic", "not a topic");
  checkAnswer(`ws push ${push.topic}`, data, push.data, o);
}
