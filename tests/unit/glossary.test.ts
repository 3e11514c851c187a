/**
 * The glossaries (locales/<lang>/GLOSSARY.md): every language names its word for each of the
 * product's terms, and its strings, web and upstream alike, use it. Where the English string of a
 * key uses a term, the translation contains one of the language's checked forms; no string contains
 * a form the language avoids (the other register, a regional variant, a wrong term).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../app/i18n";

const ROOTS = [path.resolve("locales"), path.resolve("upstream/locales")];

type Row = { term: string; cells: string[] };

/** The rows of a GLOSSARY.md's table, cells trimmed (`\|` is a literal bar inside a cell). */
function tableOf(lang: string): Row[] {
  const text = fs.readFileSync(path.resolve("locales", lang, "GLOSSARY.md"), "utf8");
  const rows = text
    .split("\n")
    .filter((l) => l.trimStart().startsWith("|"))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, "")
        .split(/(?<!\\)\|/)
        .map((c) => c.trim().replace(/\\\|/g, "|")),
    )
    .filter((cells) => !cells.every((c) => /^:?-+:?$/.test(c)));
  return rows.slice(1).map((cells) => ({ term: cells[0], cells: cells.slice(1) }));
}

type Term = { term: string; pattern: RegExp | null };

const TERMS: Term[] = tableOf("en").map(({ term, cells }) => {
  const source = cells[0].replace(/^`|`$/g, "");
  return { term, pattern: source ? new RegExp(`\\b(?:${source})\\b`, "giu") : null };
});

type Entry = { term: string; translation: string; checked: string[]; avoid: string[] };

const list = (cell: string | undefined) =>
  (cell ?? "")
    .split(",")
    .map((s) => s.trim().normalize("NFC"))
    .filter((s) => s && s !== "—" && s !== "-");

function glossaryOf(lang: string): Entry[] {
  return tableOf(lang).map(({ term, cells }) => ({
    term,
    translation: cells[0] ?? "",
    checked: list(cells[1]),
    avoid: list(cells[2]),
  }));
}

/** Scripts written without spaces between words: there a form matches anywhere. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A glossary form as a pattern: a whole word, `*` at an end letting letters follow or precede. */
function formPattern(form: string): RegExp {
  let pattern = PATTERNS.get(form);
  if (!pattern) PATTERNS.set(form, (pattern = compileForm(form)));
  return pattern;
}
/** Each form's pattern, compiled once: the checks test every form against thousands of strings. */
const PATTERNS = new Map<string, RegExp>();

function compileForm(form: string): RegExp {
  const core = escape(form.replace(/^\*|\*$/g, ""));
  if (UNSPACED.test(form)) return new RegExp(core, "iu");
  const before = form.startsWith("*") ? "" : "(?<![\\p{L}\\p{M}\\p{N}])";
  const after = form.endsWith("*") ? "" : "(?![\\p{L}\\p{M}\\p{N}])";
  return new RegExp(`${before}${core}${after}`, "iu");
}

/** Every string of a language, web and upstream, by "<root>/<file>:<key>". */
function stringsOf(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const root of ROOTS) {
    const dir = path.join(root, lang);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      const walk = (obj: unknown, prefix: string) => {
        for (const [k, v] of Object.entries(obj as Record<string, unknown>)) {
          const key = prefix ? `${prefix}.${k}` : k;
          if (v && typeof v === "object") walk(v, key);
          else out.set(`${path.basename(root)}/${file}:${key}`, String(v).normalize("NFC"));
        }
      };
      walk(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")), "");
    }
  }
  return out;
}

const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;
const english = stringsOf("en");

/** The English string a translated key renders: a plural form compares with English "other". */
function englishOf(key: string): string | undefined {
  if (english.has(key)) return english.get(key);
  const m = PLURAL.exec(key);
  return m ? english.get(`${m[1]}_other`) : undefined;
}

/** The terms an English string uses: longer terms first, each taken out before shorter ones. */
function termsIn(text: string): string[] {
  let terms = TERMS_IN.get(text);
  if (!terms) TERMS_IN.set(text, (terms = findTerms(text)));
  return terms;
}
/** termsIn's answer for each English string, found once for all 14 languages. */
const TERMS_IN = new Map<string, string[]>();

function findTerms(text: string): string[] {
  // A placeholder's name ({{network}}) and markup are not words the user reads.
  let rest = text.replace(/\{\{\s*\w+\s*\}\}|<\/?\w+>/g, " ");
  const found: string[] = [];
  for (const { term, pattern } of TERMS) {
    if (!pattern) continue;
    if (pattern.test(rest)) found.push(term);
    pattern.lastIndex = 0;
    rest = rest.replace(pattern, " ");
  }
  return found;
}

const OTHERS = LANGUAGES.filter((l) => l !== "en");

describe("glossaries", () => {
  it("the English table names each term once, with a pattern for every term but the register and account", () => {
    const names = TERMS.map((t) => t.term);
    expect(new Set(names).size).toBe(names.length);
    expect(TERMS.filter((t) => !t.pattern).map((t) => t.term)).toEqual(["register", "account"]);
    expect(termsIn("Copy stop-loss reached")).toEqual(["copy stop-loss"]);
    expect(termsIn("Free margin and used margin")).toEqual(["free margin", "margin"]);
    expect(termsIn("Service providers near you")).toEqual([]);
    expect(termsIn("Not a valid {{network}} address")).toEqual([]);
  });

  for (const lang of OTHERS) {
    describe(lang, () => {
      const present = fs.existsSync(path.resolve("locales", lang, "GLOSSARY.md"));
      const entries = present ? glossaryOf(lang) : [];
      const strings = stringsOf(lang);

      it("names a word for every term of the English table, in its order", () => {
        expect(present, `locales/${lang}/GLOSSARY.md`).toBe(true);
        expect(entries.map((e) => e.term)).toEqual(TERMS.map((t) => t.term));
        for (const e of entries) expect(e.translation, `${lang} ${e.term}`).not.toBe("");
      });

      it("uses the chosen word wherever the English string uses the term", () => {
        const faults: string[] = [];
        for (const [key, text] of strings) {
          const en = englishOf(key);
          if (en === undefined) continue;
          for (const term of termsIn(en)) {
            const entry = entries.find((e) => e.term === term);
            if (!entry || entry.checked.length === 0) continue;
            if (!entry.checked.some((f) => formPattern(f).test(text)))
              faults.push(`${key}: "${term}" → one of ${entry.checked.join(", ")} in «${text}»`);
          }
        }
        expect(faults).toEqual([]);
      });

      it("never uses a word the glossary avoids", () => {
        const faults: string[] = [];
        for (const e of entries)
          for (const form of e.avoid)
            for (const [key, text] of strings)
              if (formPattern(form).test(text))
                faults.push(`${key}: «${form}» (${e.term}) in «${text}»`);
        expect(faults).toEqual([]);
      });
    });
  }
});
