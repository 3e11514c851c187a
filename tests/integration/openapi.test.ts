/**
 * The OpenAPI document (GET /openapi.json) lists every endpoint of upstream/API.md with its
 * parameters: each "### METHOD /path" heading, the query parameters of the heading, the {PARAM} of
 * its path, and the fields named by the section's "Form" or "Parameters" paragraph.
 */
import fs from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv from "ajv";
import openapiTS, { astToString } from "openapi-typescript";
import { spawnSync } from "node:child_process";
import asyncApiSpecs from "@asyncapi/specs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream, type Server } from "./upstream-harness.js";

interface DocEndpoint {
  method: string;
  /** Path with every {param} written as {}. */
  path: string;
  params: string[];
  heading: string;
}

/** Names at parenthesis depth 0 of a "Form: `a` (...), `b`" or "Parameters: `x` (...)" sentence. */
function namesOfSentence(text: string): string[] {
  const names: string[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (depth === 0 && c === "." && /\s/.test(text[i + 1] ?? " ")) break;
    else if (c === "`") {
      const end = text.indexOf("`", i + 1);
      const name = text.slice(i + 1, end);
      if (depth === 0 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) names.push(name);
      i = end;
    }
  }
  return names;
}

/** The endpoints of API.md with the parameters it names. */
function apiMdEndpoints(): DocEndpoint[] {
  const md = fs.readFileSync(path.resolve(__dirname, "../../upstream/API.md"), "utf8");
  const sections = md.split(/^### /m).slice(1);
  const out: DocEndpoint[] = [];
  for (const sec of sections) {
    const heading = sec.split("\n")[0];
    const m = /^(GET|POST|DELETE|PUT) (\/\S*)/.exec(heading);
    if (!m) continue;
    const [pathPart, query = ""] = m[2].split("?");
    const params = new Set<string>();
    for (const kv of query.split("&").filter(Boolean)) params.add(kv.split("=")[0]);
    for (const pm of pathPart.matchAll(/\{([^}]+)\}/g)) params.add(`path:${pm[1]}`);
    const body = sec.slice(heading.length);
    const braces = /(?:^|\n)Form `\{([^}]*)\}`/.exec(body);
    if (braces) for (const n of braces[1].split(",")) params.add(n.trim().replace(/\?$/, ""));
    const sentence = /(?:^|\n)(?:Form:|Parameters(?: \([^)]*\))?:)([\s\S]*?)(?:\n\n|$)/.exec(body);
    if (sentence) for (const n of namesOfSentence(sentence[1])) params.add(n);
    // "{CODE}.svg" is one path segment: the whole segment is the parameter.
    const normPath = pathPart.replace(/[^/]*\{[^}]+\}[^/]*/g, "{}");
    out.push({ method: m[1].toLowerCase(), path: normPath, params: [...params], heading });
  }
  return out;
}

describe("OpenAPI document", () => {
  let s: Server;
  let doc: any;
  beforeAll(async () => {
    // Every optional area on (the development outbox, the hand-driven market's price setter), so
    // that the document holds every endpoint API.md describes.
    s = await startUpstream({ config: { devOutbox: true, marketFeed: "manual" } });
    const r = await fetch(s.base + "/openapi.json");
    expect(r.status).toBe(200);
    doc = await r.json();
  });
  afterAll(() => s.close());

  it("is OpenAPI 3.1", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it("passes an independent validator (swagger-parser): schema, paths and references", async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
  });

  it("has every endpoint of upstream/API.md with its parameters", () => {
    const endpoints = apiMdEndpoints();
    expect(endpoints.length).toBeGreaterThanOrEqual(28);
    const paths = new Map<string, any>();
    for (const [p, item] of Object.entries<any>(doc.paths))
      paths.set(p.replace(/\{[^}]+\}/g, "{}"), item);
    const missing: string[] = [];
    for (const e of endpoints) {
      const op = paths.get(e.path)?.[e.method];
      if (!op) {
        missing.push(`${e.heading}: no operation`);
        continue;
      }
      const names = new Set<string>();
      for (const p of op.parameters ?? []) names.add(p.in === "path" ? "path:" : p.name);
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      for (const n of Object.keys(schema?.properties ?? {})) names.add(n);
      for (const want of e.params) {
        const key = want.startsWith("path:") ? "path:" : want;
        if (!names.has(key)) missing.push(`${e.heading}: parameter ${want}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("describes every answer: 200 with its data or a refusal, and the refusals by status", () => {
    type Op = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
    const undescribed: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, Op>>))
      for (const [method, op] of Object.entries(item))
        if (!Object.values(op.responses?.["200"]?.content ?? {}).some((c) => c.schema))
          undescribed.push(`${method.toUpperCase()} ${p}`);
    expect(undescribed).toEqual([]);
    const submit = doc.paths["/v1/api/forex/submit"].post.responses;
    const [ok, refusal] = submit["200"].content["application/json"].schema.anyOf;
    expect(ok.properties.code.const ?? ok.properties.code.enum?.[0]).toBe(1);
    expect(Object.keys(ok.properties.data.properties)).toEqual(
      expect.arrayContaining(["Id", "Quantity", "Price", "TargetLossPrice", "ClosedAt"]),
    );
    expect(refusal.properties.data.type).toBe("null");
    expect(Object.keys(submit)).toEqual(expect.arrayContaining(["200", "400", "429"]));
    // Each refusal comes with an example of its envelope.
    const example = (status: string) => submit[status].content["application/json"].example;
    expect(example("429")).toEqual({ code: 429, msg: expect.any(String), data: null });
    expect(example("400")).toEqual({ code: 0, msg: "Please complete: account", data: null });
    expect(submit["429"].headers["Retry-After"].schema.type).toBe("integer");
    // A success's example is upstream/API.md's (held to the schema by api-examples.test.ts).
    expect(submit["200"].content["application/json"].example).toMatchObject({
      code: 1,
      data: { Id: 17, Quantity: 0.1, Status: 1 },
    });
    const operator = doc.paths["/admin/api/charges"].get.responses;
    expect(Object.keys(operator)).toEqual(expect.arrayContaining(["401", "403"]));
    // A file is described as the file it is.
    const logo = doc.paths["/static/logos/{file}"].get.responses;
    expect(Object.keys(logo["200"].content)).toEqual(["image/svg+xml"]);
    expect(Object.keys(doc.paths["/healthz"].get.responses)).toEqual(["200", "503"]);
  });

  it("serves the browsable reference at /docs", async () => {
    const r = await fetch(s.base + "/docs/");
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/swagger/i);
  });

  it("answers a field its schema refuses with 400 and the translated refusal, never a 500", async () => {
    const c = await s.post("/api/user/createAccountDemoForU");
    const token = (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
    const r = await fetch(s.base + "/v1/api/forex/submit", {
      method: "POST",
      headers: { "content-type": "application/json", lang: "en", authorization: token },
      body: JSON.stringify({ type: { nested: 1 } }),
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ code: 0, msg: "Invalid value: type", data: null });
    const a = await fetch(s.base + "/api/notify/send_email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ to: ["x"], type: { a: 1 } }),
    });
    expect(a.status).toBe(400);
    expect(await a.json()).toEqual({ code: 0, msg: "Please complete: type", data: null });
  });
});

describe("client types generated from the document (openapi-typescript)", () => {
  let s: Server;
  let doc: any;
  beforeAll(async () => {
    s = await startUpstream({ config: { devOutbox: true, marketFeed: "manual" } });
    doc = await (await fetch(s.base + "/openapi.json")).json();
  });
  afterAll(() => s.close());

  it("type-check against the data the web reads from every endpoint, both ways", async () => {
    // The web reads each answer as the contract's type (DataOf). A client generated from the
    // document must give the same: each endpoint's generated success data and DataOf are
    // assignable to each other, checked by the TypeScript compiler.
    const root = path.resolve(__dirname, "../..");
    const dir = path.join(root, ".cache", `openapi-types-${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    try {
      fs.writeFileSync(path.join(dir, "api.d.ts"), astToString(await openapiTS(doc)));
      const lines = [
        'import type { paths } from "./api";',
        'import type { DataOf } from "@contract/api/endpoint";',
        "type Ok<T> = T extends { code: 1; data: infer D } ? D : never;",
        "type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
        // The checks can fail: another type is refused, and a generated field has its type.
        "export const differs: Both<{ a: number }, { a: string }> = false;",
        'export const quantity: Both<Ok<paths["/v1/api/forex/submit"]["post"]["responses"][200]["content"]["application/json"]>["Quantity"], number> = true;',
      ];
      let n = 0;
      for (const file of fs.readdirSync(path.join(root, "contract/api"))) {
        if (!file.endsWith(".ts") || file === "endpoint.ts" || file.endsWith("-rules.ts")) continue;
        const mod = file.replace(/\.ts$/, "");
        const defs = (await import(
          /* @vite-ignore */ path.join(root, "contract/api", file)
        )) as Record<string, unknown>;
        lines.push(`import type * as ${mod.replace(/-/g, "_")} from "@contract/api/${mod}";`);
        for (const [name, def] of Object.entries(defs)) {
          const d = def as { method?: string; path?: string; data?: unknown };
          if (!d?.data || !d.method || !d.path) continue;
          const p = d.path.replace(/:(\w+)/g, "{$1}");
          if (!doc.paths[p]) continue; // an endpoint off in this configuration
          const answer = `paths[${JSON.stringify(p)}]["${d.method.toLowerCase()}"]["responses"][200]["content"]["application/json"]`;
          lines.push(
            `export const c${n++}: Both<DataOf<typeof ${mod.replace(/-/g, "_")}.${name}>, Ok<${answer}>> = true;`,
          );
        }
      }
      expect(n).toBeGreaterThan(100);
      const check = path.join(dir, "check.ts");
      fs.writeFileSync(check, lines.join("\n") + "\n");
      // TypeScript's native compiler (tsgo, as `npm run typecheck`): the same checks in a third
      // of the time of the compiler's API.
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            paths: { "@contract/*": [path.join(root, "contract/*")] },
            types: [],
          },
          files: ["check.ts"],
        }),
      );
      const tsgo = spawnSync(
        path.join(root, "node_modules/.bin/tsgo"),
        ["-p", path.join(dir, "tsconfig.json"), "--pretty", "false"],
        { encoding: "utf8" },
      );
      expect(tsgo.error).toBeUndefined();
      // "<file>(line,col): error TSnnnn: message", of the check file only (as the API's were).
      const errors = tsgo.stdout
        .split("\n")
        .map((l) => /check\.ts\((\d+),\d+\): error (.*)/.exec(l))
        .filter((m) => m !== null)
        .map((m) => `${lines[Number(m[1]) - 1]}: ${m[2].slice(0, 300)}`);
      // Anything else the compiler says (a file it cannot read) fails the test too.
      if (errors.length === 0) expect(tsgo.stdout + tsgo.stderr).toBe("");
      expect(errors).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("AsyncAPI document of the websocket", () => {
  let s: Server;
  let doc: any;
  beforeAll(async () => {
    s = await startUpstream({ config: { marketFeed: "manual" } });
    const r = await fetch(s.base + "/asyncapi.json");
    expect(r.status).toBe(200);
    doc = await r.json();
  });
  afterAll(() => s.close());

  it("is AsyncAPI 3.0 and passes the specification's own JSON Schema (@asyncapi/specs, ajv)", () => {
    expect(doc.asyncapi).toBe("3.0.0");
    // The specification bundles the draft-07 meta-schema itself: ajv's own is left out.
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false, meta: false });
    const validate = ajv.compile(asyncApiSpecs.schemas["3.0.0"] as object);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true);
    // The validator does refuse a document that breaks the specification.
    const broken = structuredClone(doc);
    broken.operations.sendPushes.action = "publish";
    expect(validate(broken)).toBe(false);
  });

  it("describes every client message, every answer, each topic's pushes and the heartbeat", () => {
    const messages = doc.channels.ws.messages;
    const sent = doc.operations.receiveClientMessages.messages.map((m: { $ref: string }) =>
      m.$ref.split("/").pop(),
    );
    expect(sent).toEqual(["ping", "login", "logout", "subscribe", "unsubscribe"]);
    const pushes = doc.operations.sendPushes.messages.map((m: { $ref: string }) =>
      m.$ref.split("/").pop(),
    );
    expect(pushes).toEqual(
      expect.arrayContaining([
        "push_DAY_MARKET",
        "push_FOREX_TRADE",
        "push_FOREX_CLOSED",
        "push_COPY_TRADE",
        "push_KLINE_code",
      ]),
    );
    const trade = messages.push_FOREX_TRADE.payload.properties.data.properties;
    expect(Object.keys(trade)).toEqual(
      expect.arrayContaining(["Balance", "CanUse", "HazardRate", "TransOrder"]),
    );
    expect(messages.push_FOREX_TRADE.summary).toMatch(/private/);
    expect(doc.info.description).toMatch(/pings every 5 s/);
    expect(doc.channels.ws.address).toBe("/v1/ws");
  });
});
