/** The support chat's framed origin (app/utils/chat-frame.server.ts) and the account forms' schemas. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  CHAT_FRAME_CACHE_MS,
  chatFrameOrigin,
  chatFrameSource,
} from "../../app/utils/chat-frame.server";
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

describe("chatFrameSource", () => {
  afterEach(() => vi.useRealTimers());

  it("reuses the origin for the cache time (5 s by default), then reads the operator's change", async () => {
    // An upstream whose support link an operator changes; each read is counted.
    let link = "https://one.example.com/chat";
    let reads = 0;
    const upstream = http.createServer((_req, res) => {
      reads += 1;
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({ code: 1, msg: "", data: { service_link: link, service_link_type: 1 } }),
      );
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    try {
      vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-26T10:00:00Z") });
      const source = chatFrameSource(() => base, CHAT_FRAME_CACHE_MS);
      expect(CHAT_FRAME_CACHE_MS).toBe(5_000);
      expect(await source.get()).toBe("https://one.example.com");
      link = "https://two.example.com/chat";

      // Within the cache time: the first answer, without asking again.
      vi.setSystemTime(Date.now() + CHAT_FRAME_CACHE_MS);
      expect(await source.get()).toBe("https://one.example.com");
      expect(reads).toBe(1);

      // Past it: the stale answer once, while the next is read; then the new origin.
      vi.setSystemTime(Date.now() + 1);
      expect(await source.get()).toBe("https://one.example.com");
      await expect.poll(() => reads).toBe(2);
      await expect.poll(() => source.get()).toBe("https://two.example.com");
    } finally {
      await new Promise<void>((r) => upstream.close(() => r()));
    }
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
