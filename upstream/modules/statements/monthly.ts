/**
 * The monthly statement e-mail (upstream/API.md "Statements"): on the leader, at start and every
 * EVERY_MS, each user who asked for it (statement_mail_prefs) is owed the statement of the month
 * before the current one (UTC), once. The job first takes on what is owed: one statement_mails
 * row per user and month, written through the sequencer before anything is sent, whose key
 * (user, month) makes a month taken on once however often the job runs. Then it sends what it
 * took on through the mail outbox (platform/mail), in the language of the user's request, and
 * records it sent; a failed send is tried again after a back-off (RETRY_BASE_MS doubling, at most
 * RETRY_MAX_MS) until MAX_ATTEMPTS. A node stopped between a send and its record sends that one
 * e-mail again when it next leads (at least once); nothing else sends it twice.
 *
 * The clock is injected (`now`): which month is owed depends on it alone, so tests drive it.
 */
import { monthBefore, monthOf, monthRange, STATEMENT_LINES } from "@contract/api/statements";
import { LANG_TAG } from "@contract/constants";
import type { DB } from "../../platform/db.js";
import { translate, normaliseLang, type Lang } from "../../platform/i18n.js";
import { deliverNotice, type MailContext } from "../../platform/mail/outbox.js";
import { PeriodicJob } from "../../platform/periodic.js";
import { rangeOf, statementOf } from "./service.js";
import {
  claimMonth,
  dueMails,
  mailFailed,
  mailRetry,
  mailSent,
  owedMonth,
  type DueMail,
} from "./store.js";

/** How often the leader looks for statements owed. */
export const EVERY_MS = 15 * 60 * 1000;
/** Users taken on, and e-mails sent, per step of a run. */
const STEP = 100;
export const RETRY_BASE_MS = 5 * 60 * 1000;
export const RETRY_MAX_MS = 6 * 60 * 60 * 1000;
export const MAX_ATTEMPTS = 8;

export interface MonthlyDeps {
  db: DB;
  /** Runs a write on the leader's sequencer. */
  run: <T>(command: () => T) => Promise<T>;
  mail: MailContext;
  /** The web's address (links to the statement page), or null. */
  webUrl: string | null;
  log: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };
  now?: () => number;
  everyMs?: number;
}

/** Money of a statement (exact text) in a language: grouped, 2 to 6 decimals, Latin digits. */
function moneyIn(lang: Lang, text: string): string {
  return new Intl.NumberFormat(LANG_TAG[lang], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 6,
    numberingSystem: "latn",
  }).format(text as unknown as number);
}

/** A month "YYYY-MM" by name in a language ("November 2026"). */
function monthName(lang: Lang, month: string): string {
  const [y, m] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(LANG_TAG[lang], {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(Date.UTC(y, m - 1, 1));
}

/** The statement e-mail of a user's month, in `lang`: its subject and its text. */
export function statementMail(
  db: DB,
  p: { userId: number; month: string; lang: Lang; webUrl: string | null },
): { subject: string; body: string } {
  const { lang } = p;
  const days = monthRange(p.month);
  const s = statementOf(db, p.userId, rangeOf(days.from, days.to));
  const name = monthName(lang, p.month);
  const line = (key: string, text: string) => `${translate(lang, key)}: ${moneyIn(lang, text)} USD`;
  const body = [
    translate(lang, "statements.mail_intro", { month: name }),
    "",
    line("statements.line_opening", s.opening),
    ...STATEMENT_LINES.map((l) => line(`statements.line_${l}`, s.lines[l])),
    line("statements.line_closing", s.closing),
    "",
    translate(lang, "statements.mail_positions", { count: s.positions }),
    translate(lang, "statements.mail_rows", { count: s.ledger_rows }),
    ...(p.webUrl
      ? [
          "",
          translate(lang, "statements.mail_link", {
            url: `${p.webUrl.replace(/\/$/, "")}/mine/statements?from=${days.from}&to=${days.to}`,
          }),
        ]
      : []),
    "",
    translate(lang, "statements.mail_stop"),
  ];
  return {
    subject: translate(lang, "statements.mail_subject", { month: name }),
    body: body.join("\n"),
  };
}

export class MonthlyStatements {
  private readonly job: PeriodicJob<number>;
  private readonly now: () => number;

  constructor(private readonly d: MonthlyDeps) {
    this.now = d.now ?? Date.now;
    this.job = new PeriodicJob(
      () => this.work(),
      d.everyMs ?? EVERY_MS,
      (err) => d.log.error({ err }, "monthly statements not sent"),
    );
  }

  /** Takes on and sends what is owed now (or joins the run under way); how many were sent. */
  run(): Promise<number> {
    return this.job.run();
  }

  start(): void {
    this.job.start({ now: true });
  }

  stop(): void {
    this.job.stop();
  }

  private async work(): Promise<number> {
    const now = this.now();
    const current = monthOf(now);
    const month = monthBefore(current);
    const endMs = Date.parse(`${current}-01T00:00:00Z`);
    const { db } = this.d;
    for (;;) {
      const owed = owedMonth(db, { month, endMs, limit: STEP });
      if (owed.length === 0) break;
      await this.d.run(() =>
        db.transaction(() => {
          for (const userId of owed) claimMonth(db, { userId, month, at: now });
        })(),
      );
    }
    let sent = 0;
    for (;;) {
      const due = dueMails(db, { now, limit: STEP });
      if (due.length === 0) return sent;
      for (const m of due) if (await this.send(m, now)) sent++;
    }
  }

  /** Sends one statement e-mail taken on; records it sent, or when to try again. */
  private async send(m: DueMail, now: number): Promise<boolean> {
    const { db } = this.d;
    const key = { userId: m.user_id, month: m.month };
    if (m.lang === null) {
      // The user stopped asking after it was taken on: it is not sent.
      await this.d.run(() => mailFailed(db, { ...key, at: now, error: "no longer asked for" }));
      return false;
    }
    let error: string;
    try {
      const email = m.email;
      if (!email) throw new Error("the account has no e-mail address");
      const mail = statementMail(db, {
        ...key,
        lang: normaliseLang(m.lang),
        webUrl: this.d.webUrl,
      });
      if (await deliverNotice(this.d.mail, { to: email, ...mail })) {
        await this.d.run(() => mailSent(db, { ...key, at: now }));
        return true;
      }
      error = "the mail server refused the statement";
    } catch (err) {
      error = String((err as Error)?.message ?? err).slice(0, 300);
    }
    if (m.attempts + 1 >= MAX_ATTEMPTS) {
      this.d.log.warn({ ...key, error }, "monthly statement given up");
      await this.d.run(() => mailFailed(db, { ...key, at: now, error }));
    } else {
      const waitMs = Math.min(RETRY_BASE_MS * 2 ** m.attempts, RETRY_MAX_MS);
      await this.d.run(() => mailRetry(db, { ...key, nextAt: now + waitMs, error }));
    }
    return false;
  }
}
