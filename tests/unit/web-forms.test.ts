/**
 * The web's form pipeline (app/utils/forms.server.ts): body size limit (413), CSRF (403 with the
 * translated "page expired" message), zod (400 with the field messages), intents and the
 * idempotency key; and the one idempotency key maker.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { commitCsrfToken } from "../../app/utils/csrf.server";
import { newIdempotencyKey, readForm, refused } from "../../app/utils/forms.server";

const schema = z.object({
  account: z.string({ required_error: "auth:input_account" }).min(1, "auth:input_account"),
  password: z.string({ required_error: "auth:input_password" }),
  idempotency_key: z.string().uuid().optional(),
});

async function csrfPair(): Promise<{ token: string; cookie: string }> {
  const [token, setCookie] = await commitCsrfToken(new Request("http://web.test/login"));
  return { token, cookie: setCookie!.split(";")[0] };
}

function post(
  fields: Record<string, string>,
  init: { cookie?: string; lang?: string; body?: string; length?: string } = {},
): Request {
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  if (init.cookie) headers.set("Cookie", init.cookie);
  if (init.lang) headers.set("Accept-Language", init.lang);
  if (init.length) headers.set("Content-Length", init.length);
  return new Request("http://web.test/login", {
    method: "POST",
    headers,
    body: init.body ?? new URLSearchParams(fields).toString(),
  });
}

describe("form pipeline", () => {
  it("accepts a valid form with its token and hands on the value and idempotency key", async () => {
    const { token, cookie } = await csrfPair();
    const key = newIdempotencyKey();
    const form = await readForm(
      post(
        { csrf: token, account: "a@b.test", password: "secret", idempotency_key: key },
        { cookie },
      ),
      schema,
    );
    expect(form.ok).toBe(true);
    if (!form.ok) return;
    expect(form.value).toEqual({ account: "a@b.test", password: "secret", idempotency_key: key });
    expect(form.idempotencyKey).toBe(key);
    expect(form.intent).toBe("form");
  });

  it("refuses a missing token with 403 and the translated page-expired message", async () => {
    const { cookie } = await csrfPair();
    const form = await readForm(
      post({ account: "a@b.test", password: "secret" }, { cookie, lang: "fr" }),
      schema,
      { hideFields: ["password"] },
    );
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.status).toBe(403);
    expect(form.result.error?.[""]).toEqual([
      "Cette page a expiré, veuillez renvoyer le formulaire",
    ]);
    // the posted values come back (the form is shown again), hidden fields excepted
    expect(form.result.initialValue).toMatchObject({ account: "a@b.test" });
    expect(form.result.initialValue).not.toHaveProperty("password");
  });

  it("refuses a wrong token, and a token without its cookie, with 403", async () => {
    const { token, cookie } = await csrfPair();
    const other = await csrfPair();
    const wrong = await readForm(
      post({ csrf: other.token, account: "a@b.test", password: "x" }, { cookie }),
      schema,
    );
    expect(wrong.ok ? 200 : wrong.status).toBe(403);
    const noCookie = await readForm(
      post({ csrf: token, account: "a@b.test", password: "x" }),
      schema,
    );
    expect(noCookie.ok ? 200 : noCookie.status).toBe(403);
  });

  it("checks the token before the schema: an invalid form with a wrong token is a 403", async () => {
    const form = await readForm(post({ csrf: "nope" }), schema);
    expect(form.ok ? 200 : form.status).toBe(403);
  });

  it("refuses an invalid form with 400 and the field messages", async () => {
    const { token, cookie } = await csrfPair();
    const form = await readForm(post({ csrf: token, account: "" }, { cookie }), schema);
    expect(form.ok).toBe(false);
    if (form.ok) return;
    expect(form.status).toBe(400);
    expect(form.result.error?.account).toEqual(["auth:input_account"]);
    expect(form.result.error?.password).toEqual(["auth:input_password"]);
    const res = refused(form, { extra: 1 });
    expect(res.init?.status).toBe(400);
    expect(res.data).toMatchObject({
      extra: 1,
      refusedIntent: "form",
      result: { status: "error" },
    });
  });

  it("refuses a body over the limit with 413, by its declared length or by what arrives", async () => {
    const { token, cookie } = await csrfPair();
    const big = "x".repeat(2000);
    const declared = await readForm(
      post({}, { cookie, body: `csrf=${token}&account=${big}`, length: "999999" }),
      schema,
      { maxBytes: 1024 },
    );
    expect(declared.ok ? 200 : declared.status).toBe(413);
    const streamed = await readForm(
      post({ csrf: token, account: big, password: "p" }, { cookie }),
      schema,
      { maxBytes: 1024 },
    );
    expect(streamed.ok ? 200 : streamed.status).toBe(413);
    if (!streamed.ok)
      expect(streamed.result.error?.[""]).toEqual(["The form is too large to submit"]);
    const small = await readForm(
      post({ csrf: token, account: "a", password: "p" }, { cookie }),
      schema,
      { maxBytes: 1024 },
    );
    expect(small.ok).toBe(true);
  });

  it("chooses the schema by intent, refuses an unknown intent with 400, and uses the default intent", async () => {
    const { token, cookie } = await csrfPair();
    const schemas = { login: schema, demo: z.object({ intent: z.literal("demo") }) };
    const demo = await readForm(post({ csrf: token, intent: "demo" }, { cookie }), schemas);
    expect(demo.ok && demo.intent).toBe("demo");
    const unknown = await readForm(
      post({ csrf: token, intent: "drop_tables" }, { cookie }),
      schemas,
    );
    expect(unknown.ok ? 200 : unknown.status).toBe(400);
    if (!unknown.ok) expect(unknown.result.error?.[""]).toEqual(["Unknown action"]);
    // Names of the schema map's prototype are unknown intents too, never a crash.
    for (const name of ["__proto__", "constructor", "toString"]) {
      const proto = await readForm(post({ csrf: token, intent: name }, { cookie }), schemas);
      expect(proto.ok ? 200 : proto.status).toBe(400);
    }
    const none = await readForm(
      post({ csrf: token, account: "a", password: "p" }, { cookie }),
      schemas,
      { defaultIntent: "login" },
    );
    expect(none.ok && none.intent).toBe("login");
  });

  it("chooses a schema from the posted form, and prepares the form before the parse", async () => {
    const { token, cookie } = await csrfPair();
    const form = await readForm(
      post({ csrf: token, lots: "0,5", kind: "n" }, { cookie }),
      {
        form: (fd: FormData) =>
          fd.get("kind") === "n" ? z.object({ lots: z.number() }) : z.object({ lots: z.string() }),
      },
      {
        prepare: (fd) => {
          const out = new FormData();
          for (const [k, v] of fd.entries())
            out.append(k, typeof v === "string" ? v.replace(",", ".") : v);
          return out;
        },
      },
    );
    expect(form.ok && form.value).toEqual({ lots: 0.5 });
  });
});

describe("idempotency keys", () => {
  it("are fresh UUIDs", () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe("one schema", () => {
  it("leaves the posted intent to the schema", async () => {
    const [token, setCookie] = await commitCsrfToken(new Request("http://web.test/"));
    const cookie = setCookie!.split(";")[0];
    const logout = z.object({ intent: z.literal("logout") });
    const ok = await readForm(post({ csrf: token, intent: "logout" }, { cookie }), logout);
    expect(ok.ok).toBe(true);
    const bad = await readForm(post({ csrf: token, intent: "other" }, { cookie }), logout);
    expect(bad.ok ? 200 : bad.status).toBe(400);
  });
});
