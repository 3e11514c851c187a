/**
 * Uploaded images (deposit proofs, identity documents). An upload is accepted only when its bytes
 * are a JPEG, PNG or WebP image (file-type reads the bytes; the name and the declared type count for
 * nothing) that decodes; it is re-encoded (sharp), which drops every metadata block (camera, place,
 * time) and anything hidden after the image, and stored under a name the server makes in
 * DATA_DIR/uploads (mode 600). Only its owner, and operators, may read it.
 *
 * Invariant: a file exists in the folder exactly when its uploads row does (the row is written after
 * the file, and the file removed when the row cannot be written).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { fileTypeFromBuffer } from "file-type";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";

/** What is accepted, by the type the bytes show, and how each is written back. */
const FORMATS = {
  "image/jpeg": {
    ext: "jpg",
    encode: (img: sharp.Sharp) => img.jpeg({ quality: 85, mozjpeg: true }),
  },
  "image/png": { ext: "png", encode: (img: sharp.Sharp) => img.png({ compressionLevel: 9 }) },
  "image/webp": { ext: "webp", encode: (img: sharp.Sharp) => img.webp({ quality: 85 }) },
} as const;
type Mime = keyof typeof FORMATS;

/** Largest image accepted, in pixels (a decompression bomb is refused before it is decoded). */
export const MAX_PIXELS = 40_000_000;

/** A stored name: 32 hex characters and an extension (never a path). */
const NAME_RE = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

export interface StoredUpload {
  name: string;
  userId: number;
  mime: string;
  bytes: number;
  width: number;
  height: number;
}

export class Uploads {
  readonly dir: string;

  constructor(
    private readonly db: DB,
    dataDir: string,
  ) {
    this.dir = path.join(dataDir, "uploads");
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Checks, re-encodes and stores an image of `userId`; refused with a translated reason. */
  async store(userId: number, data: Buffer, now = Date.now()): Promise<StoredUpload> {
    if (data.length === 0) throw new DomainError("upload_missing");
    const kind = await fileTypeFromBuffer(data);
    if (!kind || !(kind.mime in FORMATS)) throw new DomainError("upload_not_image");
    const mime = kind.mime as Mime;
    let out: { data: Buffer; info: sharp.OutputInfo };
    try {
      // rotate() applies the EXIF orientation before the metadata is dropped.
      const img = sharp(data, { limitInputPixels: MAX_PIXELS, failOn: "error" }).rotate();
      out = await FORMATS[mime].encode(img).toBuffer({ resolveWithObject: true });
    } catch {
      throw new DomainError("upload_not_image");
    }
    const name = `${crypto.randomBytes(16).toString("hex")}.${FORMATS[mime].ext}`;
    const file = path.join(this.dir, name);
    fs.writeFileSync(file, out.data, { mode: 0o600, flag: "wx" });
    const stored: StoredUpload = {
      name,
      userId,
      mime,
      bytes: out.data.length,
      width: out.info.width,
      height: out.info.height,
    };
    try {
      this.db
        .prepare(
          "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(name, userId, mime, stored.bytes, stored.width, stored.height, now);
    } catch (err) {
      fs.rmSync(file, { force: true });
      throw err;
    }
    return stored;
  }

  /** An upload's record and bytes for `userId` (null: operators), or "not found" for anyone else. */
  read(name: string, userId: number | null): { upload: StoredUpload; data: Buffer } {
    if (!NAME_RE.test(name)) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
    const r = this.db.prepare("SELECT * FROM uploads WHERE name = ?").get(name) as
      | {
          name: string;
          user_id: number;
          mime: string;
          bytes: number;
          width: number;
          height: number;
        }
      | undefined;
    if (!r || (userId !== null && r.user_id !== userId))
      throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
    return {
      upload: {
        name: r.name,
        userId: r.user_id,
        mime: r.mime,
        bytes: r.bytes,
        width: r.width,
        height: r.height,
      },
      data: fs.readFileSync(path.join(this.dir, r.name)),
    };
  }
}
