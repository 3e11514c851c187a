/**
 * The Node the project supports: package.json's engines.node names it, the suite runs on it, and
 * every package that npm installs accepts all of it. npm only warns (EBADENGINE) when a package's
 * engines leave out the running Node, and a package that drops Node 20 in a minor or patch release
 * comes in through the lock without anyone reading that warning; here it fails the suite instead,
 * with every such package named at once.
 */
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/** What this check reads of a package-lock.json "packages" entry. */
export interface LockEntry {
  name?: string;
  version?: string;
  optional?: boolean;
  /** `{ "node": ">=20" }`, or the old array form `["node >=0.8"]`. */
  engines?: Record<string, string> | string[];
}

export interface Lock {
  packages: Record<string, LockEntry>;
}

/** The node range of an engines field, either form; null when it names none. */
export function nodeRangeOf(engines: LockEntry["engines"]): string | null {
  if (!engines) return null;
  if (Array.isArray(engines)) {
    const entry = engines.find((e) => /^node(\s|$)/.test(e.trim()));
    return entry === undefined ? null : entry.trim().slice("node".length).trim() || "*";
  }
  return typeof engines.node === "string" ? engines.node : null;
}

/** A lock key's package name: what follows its last "node_modules/" (scoped names included). */
function nameOf(key: string, entry: LockEntry): string {
  return entry.name ?? key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
}

/**
 * "name@version needs node RANGE" for each installed package of the lock whose engines.node does
 * not accept every version in `declared`. Skipped: the root entry (the project itself) and
 * optional packages that `isInstalled` says are not there (the other platforms' builds, such as
 * sharp's and esbuild's). A range that semver cannot read counts as not accepting, as npm does.
 */
export function engineMismatches(
  declared: string,
  lock: Lock,
  isInstalled: (key: string) => boolean,
): string[] {
  const found = new Set<string>();
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (key === "") continue;
    if (entry.optional && !isInstalled(key)) continue;
    const range = nodeRangeOf(entry.engines);
    if (range === null) continue;
    const accepts = semver.validRange(range) !== null && semver.subset(declared, range);
    if (!accepts) found.add(`${nameOf(key, entry)}@${entry.version} needs node ${range}`);
  }
  return [...found].sort();
}

const ROOT = path.resolve(".");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const lock: Lock = JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8"));
const declared: string = pkg.engines?.node;

describe("the declared Node", () => {
  it("is a semver range, and the lock was written from it", () => {
    expect(semver.validRange(declared), `package.json engines.node "${declared}"`).not.toBeNull();
    expect(lock.packages[""].engines).toEqual(pkg.engines);
  });

  it("is the Node this suite runs on", () => {
    expect(semver.satisfies(process.version, declared), `${process.version} vs ${declared}`).toBe(
      true,
    );
  });

  it("is accepted whole by every installed package's engines", () => {
    const present = (key: string) => fs.existsSync(path.join(ROOT, key));
    expect(engineMismatches(declared, lock, present).join("\n")).toBe("");
  });
});

describe("engineMismatches", () => {
  const everywhere = () => true;

  it("names each package whose engines leave out part of the range, once", () => {
    const crafted: Lock = {
      packages: {
        "": { name: "tradepost", engines: { node: "^20.19.0" } },
        "node_modules/sanitize-html": { version: "2.18.1", engines: { node: ">=22.12.0" } },
        "node_modules/a/node_modules/cookie": { version: "2.0.2", engines: { node: ">=22" } },
        "node_modules/b/node_modules/cookie": { version: "2.0.2", engines: { node: ">=22" } },
        "node_modules/@nats-io/nuid": { version: "3.0.0", engines: { node: ">= 22.x" } },
        // Leaves out 20.19.0 to 20.19.4, which the range holds (Node 21, left out too, is not in it).
        "node_modules/late": { version: "1.0.0", engines: { node: ">=20.19.5 <21 || >=22" } },
        "node_modules/old": { version: "0.1.0", engines: ["node >= 22"] },
        "node_modules/garbled": { version: "1.0.0", engines: { node: "twenty" } },
      },
    };
    expect(engineMismatches("^20.19.0", crafted, everywhere)).toEqual([
      "@nats-io/nuid@3.0.0 needs node >= 22.x",
      "cookie@2.0.2 needs node >=22",
      "garbled@1.0.0 needs node twenty",
      "late@1.0.0 needs node >=20.19.5 <21 || >=22",
      "old@0.1.0 needs node >= 22",
      "sanitize-html@2.18.1 needs node >=22.12.0",
    ]);
  });

  it("accepts engines that hold the whole range, and entries without a node range", () => {
    const crafted: Lock = {
      packages: {
        "": { engines: { node: ">=99" } },
        "node_modules/sanitize-html": { version: "2.17.5" },
        "node_modules/@apidevtools/swagger-parser": {
          version: "13.0.0",
          engines: { node: "^20.19.0 || >=22.12.0" },
        },
        "node_modules/better-sqlite3": { version: "12.11.1", engines: { node: "20.x || 22.x" } },
        "node_modules/npm-only": { version: "1.0.0", engines: { npm: ">=99" } },
        "node_modules/any": { version: "1.0.0", engines: ["node"] },
      },
    };
    expect(engineMismatches("^20.19.0", crafted, everywhere)).toEqual([]);
  });

  it("skips optional packages that are not installed, and checks those that are", () => {
    const crafted: Lock = {
      packages: {
        "node_modules/@img/sharp-darwin-arm64": {
          version: "0.34.5",
          optional: true,
          engines: { node: ">=22" },
        },
        "node_modules/@img/sharp-linux-x64": {
          version: "0.34.5",
          optional: true,
          engines: { node: ">=22" },
        },
      },
    };
    const installed = (key: string) => key.endsWith("linux-x64");
    expect(engineMismatches("^20.19.0", crafted, installed)).toEqual([
      "@img/sharp-linux-x64@0.34.5 needs node >=22",
    ]);
  });
});
