/**
 * Translated messages of the upstream: upstream/locales/{lang}/{area}.json, flat key -> text.
 * The `lang` header picks the language (tw maps to hk; anything unknown falls back to en).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { DEFAULT_LANG, LANGS, type Lang } from "@contract/constants";

export { DEFAULT_LANG, LANGS, type Lang };

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "locales");

let cache: Map<Lang, Record<string, string>> | null = null;

export function loadMessages(): Map<Lang, Record<string, string>> {
  if (cache) return cache;
  const m = new Map<Lang, Record<string, string>>();
  for (const lang of LANGS) {
    const dir = path.join(DIR, lang);
    const merged: Record<string, string> = {};
    if (fs.existsSync(dir)) {
      for (const f of fs
        .readdirSync(dir)
        .filter((x) => x.endsWith(".json"))
        .sort()) {
        Object.assign(merged, JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")));
      }
    }
    m.set(lang, merged);
  }
  cache = m;
  return m;
}

export function normaliseLang(raw: unknown): Lang {
  const v = String(raw ?? "")
    .trim()
    .toLowerCase();
  if (v === "tw") return "hk";
  return (LANGS as readonly string[]).includes(v) ? (v as Lang) : DEFAULT_LANG;
}

export function translate(
  lang: Lang,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const msgs = loadMessages();
  const text = msgs.get(lang)?.[key] ?? msgs.get(DEFAULT_LANG)?.[key] ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, p: string) =>
    p in params ? String(params[p]) : `{{${p}}}`,
  );
}
