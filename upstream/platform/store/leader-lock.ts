/**
 * Leadership of the order engine among upstream nodes on one PostgreSQL store: the leader is the
 * node whose lock connection holds the session advisory lock LEADER_LOCK. PostgreSQL releases it
 * the moment that connection ends, so a leader killed with -9 (its socket closed by the kernel)
 * frees it at once; a standby polling every POLL_MS takes it then.
 *
 * Fencing. A leader that loses its lock connection (PostgreSQL restarted, a network cut) stops at
 * once (`onLost`; the node process exits and its supervisor restarts it as a standby). Between the
 * loss and its detection, no write of the old leader can land: every write transaction of the
 * leader's store checks, in the statement that begins it, that the lock is still held by this
 * node's lock connection (PgStore.fenceWith, store/pg.ts), and fails otherwise.
 *
 * Health. The leader's lock connection is judged by its own answers, never by a clock: every
 * POLL_MS the leader asks it `SELECT 1`, and the connection counts as lost when it fails, when it
 * ends, or when a check stays unanswered for UNANSWERED_POLLS polls in a row (a half-open
 * connection). Polls are counted as the event loop runs them, and a timer does not catch up after
 * the loop was busy: a leader whose loop was held for seconds (a large push flush, a long tick)
 * counts one poll for that time and keeps its leadership.
 *
 * Invariant: at most one node's store accepts engine writes at any time, and it is the node holding
 * LEADER_LOCK.
 */
import pg from "pg";

/** The advisory lock key of the engine's leadership. */
export const LEADER_LOCK = 7_201_002;
/** How often a standby tries to take the lock, and a leader checks its lock connection (ms). */
export const POLL_MS = 500;
/**
 * A leader's check of its lock connection that is still unanswered after this many polls counts
 * as a lost connection (about 3 s of a running event loop at POLL_MS).
 */
export const UNANSWERED_POLLS = 6;
/**
 * How long a standby's attempt to take the lock may wait for its answer (ms). An attempt without
 * an answer may still have taken the lock on the server, so the connection is then ended (which
 * frees it) and counted as lost.
 */
const ACQUIRE_TIMEOUT_MS = 3_000;

export interface LockLog {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export class LeaderLock {
  private client: pg.Client | null = null;
  private held = false;
  private lostHandlers: Array<(why: string) => void> = [];
  private checkTimer: NodeJS.Timeout | null = null;
  /** The leader's check in flight (null when none), and the polls it has stayed unanswered. */
  private pending: Promise<void> | null = null;
  private unansweredPolls = 0;
  /** The PostgreSQL backend (process id) of the lock connection. */
  backendPid = 0;

  constructor(
    private readonly url: string,
    private readonly log: LockLog,
  ) {}

  async connect(): Promise<void> {
    const c = new pg.Client({
      connectionString: this.url,
      application_name: "tradepost-leader-lock",
      keepAlive: true,
      keepAliveInitialDelayMillis: 1_000,
    });
    c.on("error", (err) => this.lost(`lock connection error: ${err.message}`));
    c.on("end", () => this.lost("lock connection ended"));
    await c.connect();
    const r = await c.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    this.backendPid = Number(r.rows[0].pid);
    this.client = c;
  }

  get isLeader(): boolean {
    return this.held;
  }

  /** Takes the lock if free; true when this node now leads. */
  async tryAcquire(): Promise<boolean> {
    if (this.held) return true;
    const c = this.connected();
    let r: pg.QueryResult<{ ok: boolean }>;
    try {
      r = await c.query<{ ok: boolean }>({
        text: "SELECT pg_try_advisory_lock($1) AS ok",
        values: [LEADER_LOCK],
        query_timeout: ACQUIRE_TIMEOUT_MS,
      } as pg.QueryConfig<[number]>);
    } catch (err) {
      this.lost(`leadership attempt failed: ${(err as Error).message}`);
      throw err;
    }
    this.held = r.rows[0].ok === true;
    if (this.held) this.watch();
    return this.held;
  }

  /** Calls `f` once if the leadership is lost (the lock connection failed while held). */
  onLost(f: (why: string) => void): void {
    this.lostHandlers.push(f);
  }

  /** Releases the lock and closes the connection (a clean shutdown hands over at once). */
  async close(): Promise<void> {
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.checkTimer = null;
    const c = this.client;
    this.client = null;
    this.held = false;
    this.lostHandlers = [];
    if (c) await c.end().catch(() => undefined);
  }

  private connected(): pg.Client {
    if (!this.client) throw new Error("leader lock: not connected");
    return this.client;
  }

  /**
   * Asks the lock connection for an answer (one check at a time; the one in flight when called
   * again): it settles when the connection answers, and reports the connection lost if it fails.
   */
  check(): Promise<void> {
    const c = this.client;
    if (!c) return Promise.resolve();
    this.pending ??= c.query("SELECT 1").then(
      () => {
        this.pending = null;
        this.unansweredPolls = 0;
      },
      (err: Error) => {
        this.pending = null;
        this.lost(`lock check failed: ${err.message}`);
      },
    );
    return this.pending;
  }

  /** While leading, checks the lock connection every POLL_MS: a half-open one is found too. */
  private watch(): void {
    this.checkTimer = setInterval(() => {
      if (this.pending && ++this.unansweredPolls >= UNANSWERED_POLLS) {
        this.lost(`lock check unanswered for ${this.unansweredPolls} polls`);
        return;
      }
      void this.check();
    }, POLL_MS);
    this.checkTimer.unref();
  }

  private lost(why: string): void {
    const c = this.client;
    if (c === null) return; // closed on purpose
    const wasLeader = this.held;
    this.held = false;
    this.client = null;
    if (this.checkTimer) clearInterval(this.checkTimer);
    this.log.error({ why, wasLeader }, "leader lock lost");
    // Ending the connection frees the lock on the server if it still holds it (a half-open link,
    // an attempt whose answer never came).
    c.end().catch(() => undefined);
    for (const f of this.lostHandlers.splice(0)) f(why);
  }
}

/**
 * The statement a fenced store runs at the start of each write transaction: it fails (TPL01)
 * unless the lock connection `backendPid` still holds LEADER_LOCK (tp_leader_fence, migration
 * postgres/034).
 */
export function leaderFenceSql(backendPid: number): string {
  if (!Number.isSafeInteger(backendPid) || backendPid <= 0) throw new Error("bad backend pid");
  return `SELECT tp_leader_fence(${backendPid}, ${LEADER_LOCK})`;
}
