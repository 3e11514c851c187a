/**
 * Providers: a verified real user becoming one (or changing the settings, or stopping: no new
 * copies, existing copiers keep theirs), and operators hiding one (audited). Strategy traders are
 * providers from the start (follow/strategies.ts).
 */
import type { AdminProvider, ProviderSettings } from "@contract/api/copy";
import { REAL_NAME_REQUEST } from "@contract/api/verify";
import type { DB } from "../../platform/db.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { usdToMicro } from "../money/decimal.js";
import type { MoneyService } from "../money/service.js";
import { writeAudit } from "../operators/audit.js";
import type { Engine } from "../trading/engine.js";
import {
  accountKind,
  copyingOf,
  providerById,
  providerNameTaken,
  providersWithCopying,
  realNameStatus,
  setProviderHidden,
  stopUserProvider,
  upsertUserProvider,
} from "./store.js";
import { usd2 } from "../follow/stats.js";

/** Why the user may not be a provider (a message key), or null. */
function ineligibility(db: DB, userId: number): string | null {
  const kind = accountKind(db, userId);
  if (!kind || kind.is_demo || kind.copy_owner_id !== null) return "demo_only_true_account";
  if (realNameStatus(db, userId) !== REAL_NAME_REQUEST.APPROVED)
    return "provider_needs_verification";
  return null;
}

export function providerSettings(db: DB, userId: number, lang: Lang): ProviderSettings {
  const reason = ineligibility(db, userId);
  const p = providerById(db, userId);
  return {
    eligible: reason === null,
    reason: reason === null ? null : translate(lang, reason),
    provider: p
      ? {
          id: p.user_id,
          name: p.name,
          description: p.description,
          min_investment: usd2(p.min_investment_micro),
          active: p.stopped_at === null,
          hidden: p.hidden === 1,
          copiers: copyingOf(db, userId).copiers,
        }
      : null,
  };
}

/** Becomes a provider, or changes the settings; refused for demo and unverified accounts. */
export function saveProvider(
  deps: { db: DB; money: MoneyService; engine: Engine },
  userId: number,
  s: { name: string; description: string; minInvestment: string | undefined },
): void {
  const { db } = deps;
  const reason = ineligibility(db, userId);
  if (reason !== null) throw new DomainError(reason);
  if (s.name === "") throw new DomainError("provider_name_required");
  const existing = providerById(db, userId);
  if (existing && existing.style !== "user") throw new DomainError("copy_provider_not_found");
  deps.money.transaction(() => {
    if (providerNameTaken(db, s.name, userId)) throw new DomainError("provider_name_taken");
    upsertUserProvider(db, {
      userId,
      name: s.name,
      description: s.description,
      minInvestmentMicro: s.minInvestment === undefined ? 0 : usdToMicro(s.minInvestment),
      // The ranking's total rate is measured from the equity at becoming a provider.
      startCapitalMicro: Math.max(0, deps.engine.accountValues(userId).equityMicro),
      now: Date.now(),
    });
  });
}

export function stopProvider(db: DB, userId: number): void {
  const p = providerById(db, userId);
  if (!p || p.style !== "user") throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
  stopUserProvider(db, userId, Date.now());
}

export function adminProviders(db: DB): AdminProvider[] {
  return providersWithCopying(db).map((p) => ({
    id: p.user_id,
    name: p.name,
    style: p.style,
    hidden: p.hidden === 1,
    active: p.stopped_at === null,
    copiers: p.copiers,
    copying: usd2(p.invested),
  }));
}

/** An operator hides a provider from copiers (or shows it again), with the remark in the audit log. */
export function hideProvider(
  db: DB,
  h: { actor: string; providerId: number; hidden: boolean; remark: string },
): AdminProvider {
  const p = providerById(db, h.providerId);
  if (!p) throw new DomainError("not_found", CODE_NOT_FOUND, {}, 404);
  db.transaction(() => {
    setProviderHidden(db, h.providerId, h.hidden ? 1 : 0);
    writeAudit(db, {
      actor: h.actor,
      action: h.hidden ? "provider.hide" : "provider.show",
      target: `user:${h.providerId}`,
      userId: h.providerId,
      remark: h.remark,
    });
  })();
  return adminProviders(db).find((x) => x.id === h.providerId)!;
}
