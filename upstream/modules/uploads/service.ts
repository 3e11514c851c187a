/**
 * Uploaded images (deposit proofs, identity documents). An upload is accepted only when its bytes
 * are a JPEG, PNG or WebP image (file-type reads the bytes; the name and the declared type count for
 * nothing) that decodes; it is re-encoded (sharp), which drops every metadata block (camera, place,
 * time) and anything hidden after the image, and stored under a name the server makes in
 * DATA_DIR/uploads (mode 600). Only its owner, and operators, may read it.
 *
 * Cost bounds (an image is the most expensive thing a user can send): an image of more pixels than
 * the setting `upload.max_megapixels` (default 16) is refused from its header, before it is decoded;
 * a larger side than MAX_SIDE_PX is shrunk before it is encoded again; PNGs are written at a moderate
 * compression; and at most IMAGE_JOBS images are processed at once, the others waiting their turn,
 * so that sign-ins (argon2 shares the same thread pool) stay fast while uploads run.
 *
 * Invariant: a file exists in the folder exactly when its uploads row does (the row is written after
 * the file, and the file removed when the row cannot be written). The rows are kept by store.ts.
 *
 * Orphans. An image is uploaded before the deposit or verification that names it is declared, so a
 * retry, or a user who gives up, leaves an upload nothing names. sweep() removes those older than
 * the grace period (UPLOAD_ORPHAN_GRACE_S, default 24 hours): their rows in a transaction, then
 * their files once it has committed. A declaration looks its upload up inside its own transaction,
 * so it either commits first (the upload is then named, and the sweep leaves it) or finds no row
 * and is refused as if nothing had been uploaded: a file is never removed while a row names it.
 * The foreign keys to uploads(name) hold the same line in the store. A file left without its row
 * (the process stopped between the commit and the removal) is removed by a later sweep once it is
 * older than the grace period.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { fileTypeFromBuffer } from "file-type";
import pLimit from "p-limit";
import { getSetting } from "../../platform/settings.js";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import { deleteOrphanUploads, insertUpload, uploadByName, uploadExists } from "./store.js";

/** What is accepted, by the type the bytes show, and how each is written back. */
const FORMATS = {
  "image/jpeg": {
    ext: "jpg",
    encode: (img: sharp.Sharp) => img.jpeg({ quality: 85, mozjpeg: true }),
  },
  // Level 6: nearly the size of level 9 at a fraction of its time.
  "image/png": { ext: "png", encode: (img: sharp.Sharp) => img.png({ compressionLevel: 6 }) },
  "image/webp": { ext: "webp", encode: (img: sharp.Sharp) => img.webp({ quality: 85 }) },
} as const;
type Mime = keyof typeof FORMATS;

/** The most pixels the setting may allow; its default. */
export const MAX_MEGAPIXELS_LIMIT = 40;
export const DEFAULT_MAX_MEGAPIXELS = 16;

/** A longer side is shrunk to this before the image is encoded again (a document stays legible). */
export const MAX_SIDE_PX = 4096;

/** Images processed at once; the others wait their turn. */
export const IMAGE_JOBS = 2;
const imageJobs = pLimit(IMAGE_JOBS);
// One libvips thread per image: the jobs above bound the threads images may take.
sharp.concurrency(1);

/** A stored name: 32 hex characters and an extension (never a path). */
const NAME_RE = /^[0-9a-f]{32}\.(jpg|png|webp)$/;

/** How often the running upstream sweeps orphans (besides once at start-up). */
export const SWEEP_INTERVAL_MS = 3600 * 1000;

/** Rows deleted per transaction of a sweep, so that no sweep holds the write lock for long. */
const SWEEP_BATCH = 500;

/** What one sweep removed: uploads (row and file), and files that had lost their row. */
export interface SweepResult {
  removed: number;
  strays: number;
}

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
    /** How long an upload nothing names is kept, seconds (config UPLOAD_ORPHAN_GRACE_S). */
    private readonly orphanGraceS: number,
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
    const maxPixels = this.maxMegapixels() * 1_000_000;
    const out = await imageJobs(async () => {
      // The header tells the size: too many pixels is refused before anything is decoded.
      const meta = await sharp(data)
        .metadata()
        .catch(() => null);
      if (!meta?.width || !meta.height) throw new DomainError("upload_not_image");
      if (meta.width * meta.height > maxPixels)
        throw new DomainError("upload_too_many_pixels", CODE.FAIL, {
          max: this.maxMegapixels(),
        });
      try {
        // rotate() applies the EXIF orientation before the metadata is dropped.
        const img = sharp(data, { limitInputPixels: maxPixels, failOn: "error" }).rotate().resize({
          width: MAX_SIDE_PX,
          height: MAX_SIDE_PX,
          fit: "inside",
          withoutEnlargement: true,
        });
        return await FORMATS[mime].encode(img).toBuffer({ resolveWithObject: true });
      } catch {
        throw new DomainError("upload_not_image");
      }
    });
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
      insertUpload(this.db, { ...stored, createdAt: now });
    } catch (err) {
      fs.rmSync(file, { force: true });
      throw err;
    }
    return stored;
  }

  /** The setting upload.max_megapixels, within 1 and MAX_MEGAPIXELS_LIMIT. */
  private maxMegapixels(): number {
    const v = Number(getSetting(this.db, "upload.max_megapixels") ?? DEFAULT_MAX_MEGAPIXELS);
    return Number.isInteger(v) && v >= 1 && v <= MAX_MEGAPIXELS_LIMIT ? v : DEFAULT_MAX_MEGAPIXELS;
  }

  /** An upload's record and bytes for `userId` (null: operators), or "not found" for anyone else. */
  read(name: string, userId: number | null): { upload: StoredUpload; data: Buffer } {
    if (!NAME_RE.test(name)) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
    const r = uploadByName(this.db, name);
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

  /**
   * Removes the uploads nothing names that were created more than the grace period before `now`:
   * rows in a transaction, files after it commits (a file already missing is no error). Then the
   * files of the folder that have no row and were last written before the same bound.
   */
  sweep(now = Date.now()): SweepResult {
    const before = now - this.orphanGraceS * 1000;
    const batch = this.db.transaction(() =>
      deleteOrphanUploads(this.db, { before, limit: SWEEP_BATCH }),
    );
    let removed = 0;
    for (;;) {
      const names = batch();
      for (const name of names) fs.rmSync(path.join(this.dir, name), { force: true });
      removed += names.length;
      if (names.length < SWEEP_BATCH) break;
    }
    let strays = 0;
    for (const name of fs.readdirSync(this.dir)) {
      if (!NAME_RE.test(name) || uploadExists(this.db, name)) continue;
      const file = path.join(this.dir, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (!stat?.isFile() || stat.mtimeMs >= before) continue;
      fs.rmSync(file, { force: true });
      strays++;
    }
    return { removed, strays };
  }
}
