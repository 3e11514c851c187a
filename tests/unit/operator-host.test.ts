/**
 * The host name the console's gate compares with OPERATOR_HOST (app/utils/operator-host.server.ts):
 * the Host header's name, in lower case, without its port.
 */
import { describe, expect, it } from "vitest";
import { hostOf } from "../../app/utils/operator-host.server";

describe("the Host header's name", () => {
  it("drops the port and the case, and keeps an IPv6 address whole", () => {
    expect(hostOf("Console.Example.com:8443")).toBe("console.example.com");
    expect(hostOf("console.example.com")).toBe("console.example.com");
    expect(hostOf("[::1]:3000")).toBe("[::1]");
    expect(hostOf("[::1]")).toBe("[::1]");
    expect(hostOf(undefined)).toBe("");
  });
});
