/**
 * The answers' check (CHECK_ANSWERS, upstream/platform/http/answers.ts): an answer that drifts from
 * its endpoint's schema in the contract is named by its field, a refusal passes, and without the
 * check the answer is sent as it is.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerSchema } from "@contract/api/endpoint";
import { submit } from "@contract/api/trading";
import { AnswerDriftError, checkAnswer, undeclaredField } from "@contract/check";
import { answerSerializer } from "../../upstream/platform/http/answers";

const schema = answerSchema(
  z.object({ id: z.number().int(), list: z.array(z.object({ price: z.number() })) }),
);
const ok = (data: unknown) => ({ code: 1, msg: "OK", data });

function drift(answer: unknown): AnswerDriftError {
  try {
    checkAnswer("GET /x", schema, answer);
  } catch (err) {
    if (err instanceof AnswerDriftError) return err;
    throw err;
  }
  throw new Error("the answer passed");
}

describe("an answer checked against its schema", () => {
  it("passes a success with its data and a refusal with its code and message", () => {
    expect(() =>
      checkAnswer("GET /x", schema, ok({ id: 3, list: [{ price: 1.5 }] })),
    ).not.toThrow();
    expect(() =>
      checkAnswer("GET /x", schema, { code: 0, msg: "Refused", data: null }),
    ).not.toThrow();
    expect(() =>
      checkAnswer("GET /x", schema, { code: 999, msg: "Sign in again", data: null }),
    ).not.toThrow();
  });

  it("names the field of a success that has another type or is missing", () => {
    const e = drift(ok({ id: 3, list: [{ price: "1.5" }] }));
    expect(e.field).toBe("data.list[0].price");
    expect(e.message).toContain("GET /x");
    expect(e.message).toContain("data.list[0].price");
    expect(drift(ok({ list: [] })).field).toBe("data.id");
  });

  it("names a field the contract does not declare, however deep", () => {
    expect(drift(ok({ id: 3, list: [{ price: 1, extra: true }] })).field).toBe(
      "data.list[0].extra",
    );
    expect(drift({ ...ok({ id: 3, list: [] }), trace: "x" }).field).toBe("trace");
  });

  it("refuses a success code with a refusal's null data, and a refusal that carries data", () => {
    expect(drift(ok(null)).field).toBe("data");
    expect(() => checkAnswer("GET /x", schema, { code: 0, msg: "No", data: { id: 1 } })).toThrow(
      AnswerDriftError,
    );
  });

  it("ignores keys whose value is undefined (JSON leaves them out)", () => {
    expect(undeclaredField({ a: 1, b: undefined }, { a: 1 })).toBeNull();
  });
});

describe("the serializer of a route with an answer schema", () => {
  const compile = (check: boolean) =>
    answerSerializer(check)({ schema, method: "GET", url: "/x", httpStatus: "200" } as never);

  it("checks with CHECK_ANSWERS and sends the handler's own object", () => {
    const answer = ok({ id: 3, list: [] });
    expect(compile(true)(answer)).toBe(JSON.stringify(answer));
    expect(() => compile(true)(ok({ id: "3", list: [] }))).toThrow(AnswerDriftError);
  });

  it("sends any answer unchecked without CHECK_ANSWERS", () => {
    expect(compile(false)(ok({ id: "3" }))).toBe(JSON.stringify(ok({ id: "3" })));
  });

  it("describes the contract's endpoints by their own schema", () => {
    expect(submit.data.safeParse({ Id: 1 }).success).toBe(false);
  });
});
