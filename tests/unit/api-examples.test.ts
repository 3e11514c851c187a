/**
 * upstream/API.md's example answers (a ```json block with code 1 under an endpoint's heading) match
 * their endpoint's schema in the contract, strictly: the narrative guide shows what the upstream
 * sends. The OpenAPI document carries them as the endpoints' examples (platform/http/openapi.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { answerSchema, type EndpointDef } from "@contract/api/endpoint";
import { AnswerDriftError, checkAnswer } from "@contract/check";
import { apiMdExamples, routeKey } from "../../upstream/platform/http/api-examples";

const root = path.resolve(__dirname, "../..");

/** Every endpoint of the contract with an answer schema, by routeKey. */
async function endpoints(): Promise<Map<string, EndpointDef>> {
  const out = new Map<string, EndpointDef>();
  for (const file of fs.readdirSync(path.join(root, "contract/api"))) {
    if (!file.endsWith(".ts") || file === "endpoint.ts" || file.endsWith("-rules.ts")) continue;
    const mod = (await import(/* @vite-ignore */ path.join(root, "contract/api", file))) as Record<
      string,
      EndpointDef
    >;
    for (const def of Object.values(mod))
      if (def && typeof def === "object" && def.data && def.path)
        out.set(routeKey(def.method, def.path), def);
  }
  return out;
}

describe("API.md's example answers", () => {
  it("each match its endpoint's schema, field for field", async () => {
    const examples = apiMdExamples(fs.readFileSync(path.join(root, "upstream/API.md"), "utf8"));
    const defs = await endpoints();
    const drifts: string[] = [];
    let checked = 0;
    for (const [key, answer] of examples) {
      const def = defs.get(key);
      if (!def) continue; // a route outside the contract (/health, /healthz): described by itself
      checked++;
      try {
        checkAnswer(key, answerSchema(def.data!), answer);
      } catch (err) {
        if (!(err instanceof AnswerDriftError)) throw err;
        drifts.push(err.message);
      }
    }
    expect(drifts).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it("are read from the first json block of success under each heading", () => {
    const md = [
      "### GET /v1/thing?x=1 (token)",
      "```json",
      '{"code":0,"msg":"Refused","data":null}',
      "```",
      "```json",
      '{"code":1,"msg":"Success","data":{"a":1}}',
      "```",
      "### POST /admin/api/charges/{ID}/approve",
      "```json",
      "not json",
      "```",
    ].join("\n");
    const ex = apiMdExamples(md);
    expect([...ex.keys()]).toEqual(["GET /v1/thing"]);
    expect(ex.get("GET /v1/thing")).toEqual({ code: 1, msg: "Success", data: { a: 1 } });
    expect(routeKey("post", "/admin/api/charges/:id/approve")).toBe(
      routeKey("POST", "/admin/api/charges/{ID}/approve"),
    );
  });
});
