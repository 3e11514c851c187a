/** Verification codes and captchas of the upstream's account area, on an in-memory store. */
import { openTestStore } from "../support/test-store.js";
import { beforeEach, describe, expect, it } from "vitest";
import { type DB } from "../../upstream/platform/db.js";
import {
  CODE_TTL_MS,
  MAX_WRONG_TRIES,
  consumeCode,
  createCode,
  generateCode,
  recipientKey,
  resendWaitSeconds,
} from "../../upstream/modules/identity/codes.js";
import { checkCaptcha, createCaptcha } from "../../upstream/modules/identity/captcha.js";
import { isEmail, normaliseMobile } from "../../upstream/modules/identity/addresses.js";
import { microToNumber } from "../../upstream/modules/identity/views.js";

let db: DB;
beforeEach(() => {
  db = openTestStore();
});

describe("verification codes", () => {
  it("are 6 digits, zero padded", () => {
    for (let i = 0; i < 200; i++) expect(generateCode()).toMatch(/^\d{6}$/);
  });

  it("normalise recipients", () => {
    expect(recipientKey("email", " Bob@Example.COM ", null)).toBe("bob@example.com");
    expect(recipientKey("sms", "91234567", 3)).toBe("3:91234567");
  });

  it("accept the right code once, before it expires", () => {
    const now = 1_000_000;
    const { code } = createCode(db, "email", "a@b.co", 1, now);
    expect(consumeCode(db, "a@b.co", 2, code, now)).toBe("missing");
    expect(consumeCode(db, "a@b.co", 1, code, now + CODE_TTL_MS - 1)).toBe("ok");
    expect(consumeCode(db, "a@b.co", 1, code, now + 1)).toBe("missing");
  });

  it("refuse an expired code", () => {
    const { code } = createCode(db, "email", "a@b.co", 1, 0);
    expect(consumeCode(db, "a@b.co", 1, code, CODE_TTL_MS)).toBe("expired");
  });

  it("lock after 5 wrong tries", () => {
    const { code } = createCode(db, "email", "a@b.co", 1, 0);
    const wrong = code === "123456" ? "654321" : "123456";
    const results = Array.from({ length: MAX_WRONG_TRIES }, () =>
      consumeCode(db, "a@b.co", 1, wrong, 1),
    );
    expect(results).toEqual(["wrong", "wrong", "wrong", "wrong", "locked"]);
    expect(consumeCode(db, "a@b.co", 1, code, 2)).toBe("locked");
  });

  it("only the latest code of a recipient counts", () => {
    const first = createCode(db, "email", "a@b.co", 1, 0).code;
    const second = createCode(db, "email", "a@b.co", 1, 61_000).code;
    if (first !== second) expect(consumeCode(db, "a@b.co", 1, first, 62_000)).toBe("wrong");
    expect(consumeCode(db, "a@b.co", 1, second, 62_000)).toBe("ok");
  });

  it("make a recipient wait 60 s between sends", () => {
    expect(resendWaitSeconds(db, "a@b.co", 0)).toBe(0);
    createCode(db, "email", "a@b.co", 1, 10_000);
    expect(resendWaitSeconds(db, "a@b.co", 10_000)).toBe(60);
    expect(resendWaitSeconds(db, "a@b.co", 40_500)).toBe(30);
    expect(resendWaitSeconds(db, "a@b.co", 70_000)).toBe(0);
    expect(resendWaitSeconds(db, "other@b.co", 10_000)).toBe(0);
  });

  it("are stored only as a salted hash", () => {
    const { code } = createCode(db, "email", "a@b.co", 1, 0);
    const row = db.prepare("SELECT * FROM verify_codes").get() as Record<string, unknown>;
    expect(Object.values(row).map(String)).not.toContain(code);
  });
});

describe("captchas", () => {
  it("are single use and case-insensitive", () => {
    const c = createCaptcha(db, 0);
    expect(c.b64s).toMatch(/^data:image\/svg\+xml;base64,/);
    const answer = (
      db.prepare("SELECT answer FROM captchas WHERE id = ?").get(c.id) as { answer: string }
    ).answer;
    expect(checkCaptcha(db, c.id, answer.toUpperCase(), 1)).toBe(true);
    expect(checkCaptcha(db, c.id, answer, 2)).toBe(false);
  });

  it("are used up by a wrong answer and expire", () => {
    const c = createCaptcha(db, 0);
    const answer = (
      db.prepare("SELECT answer FROM captchas WHERE id = ?").get(c.id) as { answer: string }
    ).answer;
    expect(checkCaptcha(db, c.id, "????", 1)).toBe(false);
    expect(checkCaptcha(db, c.id, answer, 2)).toBe(false);
    const late = createCaptcha(db, 0);
    const a2 = (
      db.prepare("SELECT answer FROM captchas WHERE id = ?").get(late.id) as { answer: string }
    ).answer;
    expect(checkCaptcha(db, late.id, a2, 5 * 60_000 + 1)).toBe(false);
    expect(checkCaptcha(db, "unknown", "x", 0)).toBe(false);
  });
});

describe("input helpers", () => {
  it("check e-mail and mobile formats", () => {
    expect(isEmail("a.b+c@example.co.uk")).toBe(true);
    expect(isEmail("no-at.example.com")).toBe(false);
    expect(isEmail("a@b")).toBe(false);
    expect(normaliseMobile("(555) 123-4567")).toBe("5551234567");
    expect(normaliseMobile("12ab")).toBeNull();
    expect(normaliseMobile("1234")).toBeNull();
    expect(normaliseMobile("1".repeat(16))).toBeNull();
  });

  it("turn micro-USD into numbers rounded to 6 decimals", () => {
    expect(microToNumber(10_000_000_000)).toBe(10000);
    expect(microToNumber(1)).toBe(0.000001);
    expect(microToNumber(-2_500_500_000)).toBe(-2500.5);
  });
});
