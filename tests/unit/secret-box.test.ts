/** Sealed secrets: readable with their key only; the key file is made once and kept private. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, ConfigError } from "../../upstream/platform/config.js";
import {
  loadSecretKey,
  SECRET_KEY_FILE,
  seal,
  unseal,
} from "../../upstream/platform/secret-box.js";

/** An environment with only the key set. */
const envOf = (key: string) => ({ OPERATOR_SECRET_KEY: key }) as unknown as NodeJS.ProcessEnv;

describe("secret box", () => {
  it("seals with a fresh nonce, opens with the same key only, and reads unsealed legacy text", () => {
    const key = Buffer.alloc(32, 7);
    const a = seal(key, "JBSWY3DPEHPK3PXP");
    const b = seal(key, "JBSWY3DPEHPK3PXP");
    expect(a).not.toBe(b);
    expect(a).not.toContain("JBSWY3DPEHPK3PXP");
    expect(unseal(key, a)).toBe("JBSWY3DPEHPK3PXP");
    expect(() => unseal(Buffer.alloc(32, 8), a)).toThrow();
    // A changed byte is detected (GCM's tag), never read as another secret.
    const tampered = a.slice(0, -2) + (a.endsWith("AA") ? "AB" : "AA");
    expect(() => unseal(key, tampered)).toThrow();
    expect(unseal(key, "JBSWY3DPEHPK3PXP")).toBe("JBSWY3DPEHPK3PXP");
  });

  it("makes the key file once (mode 600) and reads it afterwards; a configured key wins", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-box-"));
    try {
      const first = loadSecretKey(null, dir);
      expect(fs.statSync(path.join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
      expect(loadSecretKey(null, dir).equals(first)).toBe(true);
      const hex = "ab".repeat(32);
      expect(loadSecretKey(hex, dir).toString("hex")).toBe(hex);
      expect(loadSecretKey(Buffer.alloc(32, 1).toString("base64"), dir)).toEqual(
        Buffer.alloc(32, 1),
      );
      fs.writeFileSync(path.join(dir, SECRET_KEY_FILE), "short\n");
      expect(() => loadSecretKey(null, dir)).toThrow(/32-byte key/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses an OPERATOR_SECRET_KEY that is not 32 bytes at start-up, naming it", () => {
    expect(() => loadConfig(envOf("abc"))).toThrow(ConfigError);
    expect(() => loadConfig(envOf("abc"))).toThrow(/OPERATOR_SECRET_KEY/);
    expect(loadConfig(envOf("0f".repeat(32))).operatorSecretKey).toBe("0f".repeat(32));
  });
});
