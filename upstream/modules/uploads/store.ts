/** The uploads module's SQL: one uploads row per stored image (its server-made name, owner, size). */
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
