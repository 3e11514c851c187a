/** The part of http_ece (RFC 8188 payload encryption, as web-push uses it) the push test reads. */
declare module "http_ece" {
  import type { ECDH } from "node:crypto";
  interface DecryptParams {
    version: "aes128gcm" | "aesgcm";
    privateKey?: ECDH;
    authSecret?: string;
    dh?: string;
  }
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
  const ece: { decrypt: typeof decrypt };
  export default ece;
}
