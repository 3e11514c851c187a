/** The `cluster_leader` row (migration 027): which node leads the order engine, and its URL. */
import type { DB } from "../db.js";

export interface LeaderRow {
  node: string;
  url: string;
  since: number;
}

/** Records `node` as the leader (the caller holds the leadership). */
export function recordLeader(db: DB, row: LeaderRow): void {
  // A write transaction: fenced on the leader (a deposed node cannot record itself).
  db.transaction(() =>
    db
      .prepare(
        `INSERT INTO cluster_leader (id, node, url, since) VALUES (1, @node, @url, @since)
     ON CONFLICT (id) DO UPDATE SET node = excluded.node, url = excluded.url, since = excluded.since`,
      )
      .run(row),
  )();
}

/** The recorded leader, if any node ever led. */
export function recordedLeader(db: DB): LeaderRow | undefined {
  return db.prepare("SELECT node, url, since FROM cluster_leader WHERE id = 1").get() as
    LeaderRow | undefined;
}
