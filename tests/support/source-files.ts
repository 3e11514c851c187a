/**
 * The repository's TypeScript sources as the structure tests read them: the root, a folder's files
 * (relative to the root, recursively), and which of them may hold SQL. One definition for the
 * architecture test, the money boundary test and the store-statement walk.
 */
import fs from "node:fs";
import path from "node:path";

/** The repository's root. */
export const ROOT = path.resolve(__dirname, "../..");

/** Every .ts file below `dir` (relative to the root), as paths relative to the root. */
export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory()
        ? sourceFiles(`${dir}/${d.name}`)
        : d.name.endsWith(".ts")
          ? [`${dir}/${d.name}`]
          : [],
    );
}

/** Files that may hold SQL: store files, the database's own opening and migrations, and the store drivers. */
export const isStoreFile = (rel: string) =>
  /(^|\/)(store|[\w-]+-store)\.ts$/.test(rel) ||
  rel === "upstream/platform/db.ts" ||
  rel.startsWith("upstream/platform/store/");
