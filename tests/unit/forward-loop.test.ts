/**
 * A standby forwards a request at most once (platform/cluster/forward.ts): with a leader row that
 * names the node itself under another name (a restart) the request is sent on once, the second
 * hop answers 503 "leader unavailable", and that answer is relayed: no request circles.
 */
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { FORWARDED_HEADER, forwardToLeader } from "../../upstream/platform/cluster/forward.js";

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

describe("forwarding to the leader", () => {
  it("sends a request on once: a node that receives it forwarded answers 503 instead", async () => {
    const app = Fastify();
    apps.push(app);
    let base = "";
    const hops: (string | undefined)[] = [];
    app.post("/api/order", (req, reply) => {
      hops.push(req.headers[FORWARDED_HEADER] as string | undefined);
      return forwardToLeader(() => base, req, reply, "upstream-2");
    });
    base = await app.listen({ port: 0, host: "127.0.0.1" });
    const res = await fetch(`${base}/api/order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ lots: "0.01" }),
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(((await res.json()) as { msg: string }).msg).toMatch(/moving to another server/);
    // The client's request, then the same request forwarded once, marked with the sender's name.
    expect(hops).toEqual([undefined, "upstream-2"]);
  });
});
