/**
 * The answers upstream/API.md shows: under a "### METHOD /path" heading, the first ```json block
 * whose envelope has code 1. The OpenAPI document carries each as its endpoint's example of success,
 * and a unit test holds every one of them to its endpoint's schema (tests/unit/api-examples.test.ts),
 * so the narrative guide cannot drift from the contract either.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** "METHOD /path" with every path parameter written {} (`:id` and `{ID}` alike). */
export function routeKey(method: string, routePath: string): string {
  return `${method.toUpperCase()} ${routePath.replace(/:\w+/g, "{}").replace(/\{[^}]*\}/g, "{}")}`;
}

/** The success answers of API.md's sections, by routeKey; a block that is not JSON is skipped. */
export function apiMdExamples(md: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const section of md.split(/^### /m).slice(1)) {
    const heading = /^(GET|POST|PUT|DELETE) (\/\S*)/.exec(section);
    if (!heading) continue;
    for (const block of section.matchAll(/```json\n([\s\S]*?)\n\s*```/g)) {
      let answer: unknown;
      try {
        answer = JSON.parse(block[1]!);
      } catch {
        continue;
      }
      if ((answer as { code?: unknown } | null)?.code !== 1) continue;
      out.set(routeKey(heading[1]!, heading[2]!.split("?")[0]!), answer);
      break;
    }
  }
  return out;
}

/** API.md beside the upstream's sources; none when it is not there (a bundle without it). */
export function loadApiMdExamples(): Map<string, unknown> {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../API.md");
  try {
    return apiMdExamples(fs.readFileSync(file, "utf8"));
  } catch {
    return new Map();
  }
}
