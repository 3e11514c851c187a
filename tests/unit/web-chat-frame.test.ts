/** The support chat's framed origin (app/utils/chat-frame.server.ts) and the account forms' schemas. */
import { describe, expect, it } from "vitest";
import { chatFrameOrigin } from "../../app/utils/chat-frame.server";
import { bindEmailSchema, passwordChangeSchema } from "../../app/schemas/account";

describe("chatFrameOrigin", () => {
  it("is the link's origin only in frame mode with an http(s) link", () => {
    expect(
      chatFrameOrigin({ service_link: "https://chat.example.com/room?id=1", service_link_type: 1 }),
    ).toBe("https://chat.example.com");
    expect(chatFrameOrigin({ service_link: "http://127.0.0.1:3422/x", service_link_type: 1 })).toBe(
      "http://127.0.0.1:3422",
    );
    expect(
      chatFrameOrigin({ service_link: "https://chat.example.com", service_link_type: 2 }),
    ).toBeNull();
    expect(chatFrameOrigin({ service_link: "", service_link_type: 1 })).toBeNull();
    expect(
      chatFrameOrigin({ service_link: "javascript:alert(1)", service_link_type: 1 }),
    ).toBeNull();
    expect(chatFrameOrigin({ service_link: "not a url", service_link_type: 1 })).toBeNull();
  });
});

describe("account schemas", () => {
  it("the password change needs the code and two equal passwords of the allowed length", () => {
    const ok = passwordChangeSchema.safeParse({
      auth_code: "123456",
      new_password: "Secret-1234",
      re_password: "Secret-1234",
    });
    expect(ok.success).toBe(true);
    const bad = passwordChangeSchema.safeParse({
      new_password: "Secret-1234",
      re_password: "Secret-12345",
    });
    expect(bad.success).toBe(false);
    const issues = bad.success ? [] : bad.error.issues.map((i) => `${i.path[0]}:${i.message}`);
    expect(issues).toEqual([
      "auth_code:auth:input_code",
      "re_password:auth:password_inconsistency",
    ]);
    const short = passwordChangeSchema.safeParse({
      auth_code: "1",
      new_password: "short",
      re_password: "short",
    });
    expect(short.success ? [] : short.error.issues.map((i) => i.message)).toEqual([
      "auth:password_length",
    ]);
  });

  it("binding an e-mail needs a valid address and the code", () => {
    expect(bindEmailSchema.safeParse({ email: "a@example.com", auth_code: "1" }).success).toBe(
      true,
    );
    const bad = bindEmailSchema.safeParse({ email: "nope" });
    expect(bad.success ? [] : bad.error.issues.map((i) => i.message)).toEqual([
      "auth:invalid_email",
      "auth:input_code",
    ]);
  });
});
