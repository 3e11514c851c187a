/**
 * The texts a person sees, read from the product's own translation files, so that a spec can say
 * "the English message for input_password is shown" and fail when a raw key or nothing is shown.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function lookup(obj: unknown, key: string): string | undefined {
  if (obj && typeof obj === "object") {
    const rec = obj as Record<string, unknown>;
    if (typeof rec[key] === "string") return rec[key] as string;
    const dot = key.indexOf(".");
    if (dot > 0) {
      // nested objects: "home.title" -> {home: {title}}; try every split point
      for (let i = dot; i > 0; i = key.indexOf(".", i + 1)) {
        const head = key.slice(0, i);
        if (head in rec) {
          const v = lookup(rec[head], key.slice(i + 1));
          if (v !== undefined) return v;
        }
        if (key.indexOf(".", i + 1) < 0) break;
      }
    }
  }
  return undefined;
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => String(params[k] ?? `{{${k}}}`));
}

/** A web text: `web("en", "auth:input_password")`. */
export function web(
  lang: string,
  nsKey: string,
  params: Record<string, string | number> = {},
): string {
  const [ns, key] = nsKey.includes(":")
    ? (nsKey.split(/:(.*)/s) as [string, string])
    : ["common", nsKey];
  const file = path.join(ROOT, "locales", lang, `${ns}.json`);
  const text = lookup(readJson(file), key);
  if (text === undefined) throw new Error(`no text ${nsKey} in ${file}`);
  // What a person sees: markup for <Trans> (a <bdi> isolating a figure) is not text.
  return fill(text.replace(/<\/?\w+>/g, ""), params);
}

/** An upstream message: `upstream("en", "accounts", "accounts.login_failed")`. */
export function upstream(
  lang: string,
  area: string,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const file = path.join(ROOT, "upstream", "locales", lang, `${area}.json`);
  const text = lookup(readJson(file), key);
  if (text === undefined) throw new Error(`no text ${key} in ${file}`);
  return fill(text, params);
}

/** A RegExp matching a text exactly as a substring (special characters escaped). */
export function literal(text: string, flags = ""): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags);
}
