/** Every web form schema, parsed from FormData exactly as the actions do (conform + zod). */
import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import type { ZodTypeAny } from "zod";
import { loginSchema } from "../../app/schemas/login";
import { demoSchema } from "../../app/schemas/demo";
import { registerSchema } from "../../app/schemas/register";
import { sendCodeSchema, sendCodeWithCaptchaSchema } from "../../app/schemas/send-code";
import { forgotSchema } from "../../app/schemas/forgot";
import { languageSchema } from "../../app/schemas/language";
import { balanceVisibilitySchema } from "../../app/schemas/balance-visibility";
import { logoutSchema } from "../../app/schemas/logout";
import { searchSchema } from "../../app/schemas/search";
import { demoResetSchema } from "../../app/schemas/demo-reset";
import { getT } from "../../app/i18n.server";

function form(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return fd;
}

function parse(schema: ZodTypeAny, fields: Record<string, string>) {
  const s = parseWithZod(form(fields), { schema });
  return {
    status: s.status,
    value: s.status === "success" ? s.value : undefined,
    error: s.status === "success" ? undefined : s.error,
  };
}

describe("login", () => {
  it("asks for the account and the password before calling", () => {
    const r = parse(loginSchema, { login_type: "email", account: "", password: "" });
    expect(r.status).toBe("error");
    expect(r.error?.account).toEqual(["auth:input_account"]);
    expect(r.error?.password).toEqual(["auth:input_password"]);
  });
  it("accepts e-mail and mobile logins with the upstream's field names", () => {
    expect(
      parse(loginSchema, { login_type: "email", account: " a@b.co ", password: "x" }).value,
    ).toEqual({ login_type: "email", account: "a@b.co", password: "x" });
    expect(
      parse(loginSchema, { login_type: "mobile", account: "5551234", password: "x", area_id: "3" })
        .value,
    ).toMatchObject({ login_type: "mobile", area_id: 3 });
  });
  it("refuses an unknown login type", () => {
    expect(
      parse(loginSchema, { login_type: "fax", account: "a", password: "x" }).error?.login_type,
    ).toBeDefined();
  });
});

describe("register", () => {
  const ok = {
    type: "email",
    account: "new@example.com",
    password: "Secret-1234",
    re_password: "Secret-1234",
    sms_code: "123456",
  };
  it("accepts a complete e-mail sign-up, invite code optional", () => {
    expect(parse(registerSchema, ok).value).toMatchObject({
      type: "email",
      account: "new@example.com",
      sms_code: "123456",
    });
    expect(parse(registerSchema, { ...ok, invite_code: "ABC123" }).value).toMatchObject({
      invite_code: "ABC123",
    });
  });
  it("says 'The passwords do not match' when the passwords differ", () => {
    expect(parse(registerSchema, { ...ok, re_password: "Secret-1235" }).error?.re_password).toEqual(
      ["auth:password_inconsistency"],
    );
  });
  it("reports every problem at once (mismatch and missing code together)", () => {
    const r = parse(registerSchema, { ...ok, re_password: "Secret-1235", sms_code: "" });
    expect(r.error?.re_password).toEqual(["auth:password_inconsistency"]);
    expect(r.error?.sms_code).toEqual(["auth:input_code"]);
  });
  it("requires the verification code and a complete form", () => {
    const r = parse(registerSchema, {
      type: "email",
      account: "",
      password: "",
      re_password: "",
      sms_code: "",
    });
    expect(r.error?.sms_code).toEqual(["auth:input_code"]);
    expect(r.error?.re_password).toEqual(["auth:please_complete"]);
    expect(r.error?.account).toEqual(["auth:input_account"]);
    expect(r.error?.password).toEqual(["auth:input_password"]);
  });
  it("checks e-mail format, password length, and the area of a phone number", () => {
    expect(parse(registerSchema, { ...ok, account: "not-an-email" }).error?.account).toEqual([
      "auth:invalid_email",
    ]);
    expect(
      parse(registerSchema, { ...ok, password: "12345", re_password: "12345" }).error?.password,
    ).toEqual(["auth:password_length"]);
    for (const pw of ["Secr-12", "x".repeat(129)])
      expect(
        parse(registerSchema, { ...ok, password: pw, re_password: pw }).error?.password,
      ).toEqual(["auth:password_length"]);
    for (const pw of ["Secr-123", "x".repeat(128)])
      expect(parse(registerSchema, { ...ok, password: pw, re_password: pw }).status).toBe(
        "success",
      );
    const m = parse(registerSchema, { ...ok, type: "mobile", account: "5551234" });
    expect(m.error?.area_id).toEqual(["auth:choose_area"]);
    expect(
      parse(registerSchema, { ...ok, type: "mobile", account: "5551234", area_id: "1" }).status,
    ).toBe("success");
    expect(
      parse(registerSchema, { ...ok, type: "mobile", account: "12ab", area_id: "1" }).error
        ?.account,
    ).toEqual(["auth:invalid_mobile"]);
  });
});

describe("send code", () => {
  it("needs a valid recipient (and an area for a phone)", () => {
    expect(
      parse(sendCodeSchema, { intent: "send_code", type: "email", account: "" }).error?.account,
    ).toEqual(["auth:input_account"]);
    expect(
      parse(sendCodeSchema, { intent: "send_code", type: "email", account: "x@y.io" }).value,
    ).toMatchObject({ account: "x@y.io" });
    expect(
      parse(sendCodeSchema, { intent: "send_code", type: "mobile", account: "5551234" }).error
        ?.area_id,
    ).toEqual(["auth:choose_area"]);
  });
  it("requires the captcha answer when the captcha is on", () => {
    const f = { intent: "send_code", type: "email", account: "x@y.io", captcha_id: "abc" };
    expect(parse(sendCodeSchema, f).status).toBe("success");
    expect(parse(sendCodeWithCaptchaSchema, f).error?.captcha_code).toEqual(["auth:input_captcha"]);
    expect(parse(sendCodeWithCaptchaSchema, { ...f, captcha_code: "k7p2" }).status).toBe("success");
  });
  it("only parses the send_code intent", () => {
    expect(
      parse(sendCodeSchema, { intent: "register", type: "email", account: "x@y.io" }).status,
    ).toBe("error");
  });
});

describe("forgot", () => {
  const ok = {
    type: "email",
    account: "a@b.co",
    auth_code: "123456",
    new_password: "Secret-1234",
    secondary_password: "Secret-1234",
  };
  it("accepts a complete reset", () => {
    expect(parse(forgotSchema, ok).status).toBe("success");
  });
  it("needs matching passwords and the code", () => {
    expect(
      parse(forgotSchema, { ...ok, secondary_password: "Other-1234" }).error?.secondary_password,
    ).toEqual(["auth:password_inconsistency"]);
    expect(parse(forgotSchema, { ...ok, auth_code: "" }).error?.auth_code).toEqual([
      "auth:input_code",
    ]);
  });
});

describe("small forms", () => {
  it("language: one of the 15 codes, tw meaning hk", () => {
    expect(parse(languageSchema, { lng: "ar" }).value).toMatchObject({ lng: "ar" });
    expect(parse(languageSchema, { lng: "tw" }).value).toMatchObject({ lng: "hk" });
    expect(parse(languageSchema, { lng: "xx" }).error?.lng).toEqual(["common:language_unknown"]);
  });
  it("demo, logout and the balance toggle carry only their intent", () => {
    expect(parse(demoSchema, { intent: "demo" }).status).toBe("success");
    expect(parse(demoSchema, {}).status).toBe("error");
    expect(parse(logoutSchema, { intent: "logout" }).status).toBe("success");
    expect(parse(balanceVisibilitySchema, { intent: "toggle_balance", hide: "1" }).value).toEqual({
      intent: "toggle_balance",
      hide: "1",
    });
    expect(parse(balanceVisibilitySchema, { intent: "toggle_balance", hide: "maybe" }).status).toBe(
      "error",
    );
  });
  it("demo reset: needs its intent and a well-formed idempotency key", () => {
    const key = "0b6a1c1e-8f1d-4c2a-9b7e-3f4d5a6b7c8d";
    expect(parse(demoResetSchema, { intent: "reset_demo", idempotency_key: key }).status).toBe(
      "success",
    );
    expect(parse(demoResetSchema, { intent: "reset_demo", idempotency_key: "again" }).status).toBe(
      "error",
    );
    expect(parse(demoResetSchema, { intent: "toggle_balance", idempotency_key: key }).status).toBe(
      "error",
    );
  });
  it("search: at most 32 characters", () => {
    expect(searchSchema.safeParse({ searchCurrency: " EUR " }).data).toEqual({
      searchCurrency: "EUR",
    });
    expect(searchSchema.safeParse({ searchCurrency: "x".repeat(33) }).success).toBe(false);
  });
});

describe("messages", () => {
  it("every schema message is a translated key, with the spec's English wording", async () => {
    const t = await getT("en", ["common", "auth"]);
    expect(t("auth:password_inconsistency")).toBe("The passwords do not match");
    expect(t("auth:please_complete")).toBe("Please fill in this field");
    const keys = [
      "auth:input_account",
      "auth:input_password",
      "auth:input_code",
      "auth:invalid_email",
      "auth:invalid_mobile",
      "auth:password_length",
      "auth:choose_area",
      "auth:input_captcha",
      "common:language_unknown",
      "common:search_too_long",
    ];
    for (const lang of ["en", "ar", "jp"]) {
      const tl = await getT(lang, ["common", "auth"]);
      for (const k of keys) {
        const text = tl(k);
        expect(text, `${lang} ${k}`).not.toBe(k.split(":")[1]);
        expect(text.length).toBeGreaterThan(0);
      }
    }
  });
});
