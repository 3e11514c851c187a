/**
 * The pure pieces of real-name verification: the id number's mask, the web's first-bytes check of
 * an image, the web form's schema (the same name and id rules as the upstream's, from the
 * contract) and the upstream service's states over a real store.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { REVIEW_STATUS } from "@contract/enums";
import { REAL_NAME_REQUEST, realName, rejectRealName } from "@contract/api/verify";
import { maskCardId, RealNames } from "../../upstream/modules/verify/service";
import { openDb } from "../../upstream/platform/db";
import { looksLikeImage } from "../../app/routes/mine.auth/auth.server";
import { realNameSchema, VERIFY_MSG } from "../../app/schemas/verify";

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { key?: string }).key ?? String(e);
  }
  return "accepted";
};

describe("verification pieces", () => {
  it("masks all but the first 2 and last 2 characters of an id number", () => {
    expect(maskCardId("A1234567")).toBe("A1****67");
    expect(maskCardId("12345")).toBe("12*45");
    expect(maskCardId("1234")).toBe("****");
    expect(maskCardId("")).toBe("");
  });

  it("recognises JPEG, PNG and WebP by their first bytes, and nothing else", () => {
    const b = (...xs: (number | string)[]) =>
      new Uint8Array(
        xs.flatMap((x) => (typeof x === "string" ? [...x].map((c) => c.charCodeAt(0)) : [x])),
      );
    expect(looksLikeImage(b(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(looksLikeImage(b(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe(true);
    expect(looksLikeImage(b("RIFF", 0, 0, 0, 0, "WEBP"))).toBe(true);
    expect(looksLikeImage(b("RIFF", 0, 0, 0, 0, "WAVE"))).toBe(false);
    expect(looksLikeImage(b("GIF89a"))).toBe(false);
    expect(looksLikeImage(b())).toBe(false);
  });

  it("parses the form as the action does: trimmed, bounded, the contract's characters", () => {
    const parse = (fields: Record<string, string>) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      const s = parseWithZod(fd, { schema: realNameSchema });
      return s.status === "success" ? s.value : Object.values(s.error ?? {}).flat();
    };
    expect(parse({ name: "  Ana   Souza ", card_id: " 123-456 " })).toEqual({
      name: "Ana Souza",
      card_id: "123-456",
    });
    expect(parse({ name: "李小龍", card_id: "A123456(7)" })).toEqual({
      name: "李小龍",
      card_id: "A123456(7)",
    });
    expect(parse({ name: "", card_id: "" })).toEqual([VERIFY_MSG.name, VERIFY_MSG.cardId]);
    expect(parse({ name: "x".repeat(65), card_id: "123" })).toEqual([
      VERIFY_MSG.nameLong,
      VERIFY_MSG.cardIdLength,
    ]);
    expect(parse({ name: "<script>", card_id: "12;34" })).toEqual([
      VERIFY_MSG.nameChars,
      VERIFY_MSG.cardIdChars,
    ]);
  });

  it("reads the upstream's fields as the contract's schemas do: spaced, upper-cased, each refusal its message", () => {
    const body = {
      name: "  Ana   Souza ",
      card_id: " a123-456 ",
      front_pic: " a.png",
      reverse_pic: "b.png",
    };
    expect(realName.body.parse(body)).toEqual({
      name: "Ana Souza",
      card_id: "A123-456",
      front_pic: "a.png",
      reverse_pic: "b.png",
    });
    const refusalOf = (fields: Record<string, unknown>) => {
      const r = realName.body.safeParse({ ...body, ...fields });
      return r.success ? "accepted" : r.error.issues[0].message;
    };
    expect(refusalOf({ name: "  " })).toBe("verify.name_required");
    expect(refusalOf({ name: "x".repeat(65) })).toBe("verify.name_too_long");
    expect(refusalOf({ name: "<script>" })).toBe("verify.name_invalid");
    expect(refusalOf({ card_id: undefined })).toBe("verify.card_id_required");
    expect(refusalOf({ card_id: "12" })).toBe("verify.card_id_invalid");
    expect(refusalOf({ card_id: "12;DROP" })).toBe("verify.card_id_invalid");
    expect(refusalOf({ front_pic: "" })).toBe("verify.front_missing");
    expect(refusalOf({ reverse_pic: " " })).toBe("verify.reverse_missing");
    expect(rejectRealName.body.parse({ remark: " blurred  photo " })).toEqual({
      remark: "blurred photo",
    });
    expect(rejectRealName.body.safeParse({ remark: "  " }).error?.issues[0].message).toBe(
      "remark_required",
    );
  });

  it("moves an account from not submitted to waiting, back with a remark, then certified", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-verify-unit-"));
    const db = openDb(path.join(dir, "db.sqlite"));
    try {
      const user = (demo: number) =>
        Number(
          db
            .prepare(
              "INSERT INTO users (uid, email, password_hash, invite_code, is_demo, created_at) VALUES (?, ?, 'x', ?, ?, 0)",
            )
            .run(`u${demo}${Math.random()}`, `${Math.random()}@x.y`, `i${Math.random()}`, demo)
            .lastInsertRowid,
        );
      const id = user(0);
      const pic = (name: string, owner = id) =>
        db
          .prepare(
            "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES (?, ?, 'image/png', 1, 1, 1, 0)",
          )
          .run(name, owner);
      pic("a.png");
      pic("b.png");
      const names = new RealNames(db, () => 1_000);
      const sub = { name: "Ana", cardId: "A12345", frontPic: "a.png", reversePic: "b.png" };
      expect(names.center(id)).toEqual({ reviewStatus: REVIEW_STATUS.NOT_SUBMITTED, latest: null });
      expect(refusal(() => names.submit(id, { ...sub, reversePic: "a.png" }))).toBe(
        "verify.pics_same",
      );
      const first = names.submit(id, sub);
      expect(first).toMatchObject({ status: REAL_NAME_REQUEST.WAITING, cardId: "A12345" });
      expect(refusal(() => names.submit(id, sub))).toBe("verify.already_waiting");
      names.reject(first.id, "op", "blurred");
      expect(names.center(id)).toMatchObject({
        reviewStatus: REVIEW_STATUS.NOT_SUBMITTED,
        latest: { remark: "blurred", decidedBy: "op" },
      });
      expect(refusal(() => names.approve(first.id, "op"))).toBe("verify.already_decided");
      const second = names.submit(id, sub);
      names.approve(second.id, "op");
      expect(names.center(id).reviewStatus).toBe(REVIEW_STATUS.CERTIFIED);
      expect(refusal(() => names.submit(id, sub))).toBe("verify.already_certified");
      expect(names.page(REAL_NAME_REQUEST.REJECTED, 1, 20).total).toBe(1);
      expect(names.page(REAL_NAME_REQUEST.APPROVED, 1, 20).items.map((r) => r.id)).toEqual([
        second.id,
      ]);
      expect(refusal(() => names.submit(user(1), sub))).toBe("demo_only_true_account");
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
