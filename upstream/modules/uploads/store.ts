/**
 * The uploads module's SQL: one uploads row per stored image (its server-made name, owner, size).
 * An upload is referenced where a column names it: a deposit's proof (charges.proof) and the two
 * pictures of a real-name request (real_name_requests.front_pic, reverse_pic); those are every
 * column that names one (the foreign keys to uploads(name) of migrations 011 and 015). News
 * pictures are files of the content module, never uploads.
 */
import type { DB } from "../../platform/db.js";

export interface UploadRow {
  name: string;
  user_id: number;
  mime: string;
  bytes: number;
  width: number;
  height: number;
}

export function insertUpload(
  db: DB,
  u: {
    name: string;
    userId: number;
    mime: string;
    bytes: number;
    width: number;
    height: number;
    createdAt: number;
  },
): void {
  db.prepare(
    "INSERT INTO uploads (name, user_id, mime, bytes, width, height, created_at) VALUES (@name, @userId, @mime, @bytes, @width, @height, @createdAt)",
  ).run(u);
}

export function uploadByName(db: DB, name: string): UploadRow | undefined {
  return db.prepare("SELECT * FROM uploads WHERE name = ?").get(name) as UploadRow | undefined;
}

/** Uploads no column names: the condition of an orphan, on a row `uploads` of the outer query. */
const UNREFERENCED = `NOT EXISTS (SELECT 1 FROM charges WHERE charges.proof = uploads.name)
  AND NOT EXISTS (SELECT 1 FROM real_name_requests WHERE real_name_requests.front_pic = uploads.name)
  AND NOT EXISTS (SELECT 1 FROM real_name_requests WHERE real_name_requests.reverse_pic = uploads.name)`;

/**
 * Deletes at most `limit` uploads created before `before` (ms) that nothing names; their names.
 * Call it inside a transaction: the rows are gone for every declaration that commits after it.
 */
export function deleteOrphanUploads(db: DB, p: { before: number; limit: number }): string[] {
  return (
    (
      db
        .prepare(
          `DELETE FROM uploads WHERE name IN (
           SELECT name FROM uploads WHERE created_at < @before AND ${UNREFERENCED}
           ORDER BY created_at LIMIT @limit)
         RETURNING name`,
        )
        // Rows hold whole milliseconds: `created_at < before` is `< ceil(before)`, which PostgreSQL
        // compares as a BIGINT (it refuses a fractional value there).
        .all({ before: Math.ceil(p.before), limit: p.limit }) as { name: string }[]
    ).map((r) => r.name)
  );
}

/** Whether a row of that name exists. */
export function uploadExists(db: DB, name: string): boolean {
  return db.prepare("SELECT 1 FROM uploads WHERE name = ?").get(name) !== undefined;
}
