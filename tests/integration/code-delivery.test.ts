/**
 * Codes as production delivers them (issue 20: the dev outbox never runs in production): e-mail
 * over SMTP_URL to a real SMTP server, SMS to SMS_WEBHOOK_URL, and nothing served by /dev routes.
 * A gateway that refuses a text makes the send answer "could not be sent" and records the failure.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type Server } from "./accounts-helpers.js";
import { codeIn, startMessageSink, type MessageSink } from "../support/message-sink.js";
import { translate } from "../../upstream/platform/i18n.js";

let sink: MessageSink;
let s: Server;
beforeAll(async () => {
  sink = await startMessageSink();
  s = await startServer({
    devOutbox: false,
    smtpUrl: sink.smtpUrl,
    smsWebhookUrl: sink.smsWebhookUrl,
    smsWebhookToken: "sms-gateway-token",
  });
});
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

/** The HK area (id and dialling code) of the upstream's area list. */
async function hongKong(): Promise<{ id: number; cc: string }> {
  const areas = (
    await s.get<{ id: number; code: string; global_code: string }[]>("/api/default/area_list")
  ).data;
  const hk = areas.find((a) => a.code === "HK")!;
  return { id: hk.id, cc: hk.global_code.replace(/\D/g, "") };
}

describe("code delivery without the dev outbox", () => {
  it("mails a sign-up code over SMTP in the person's language; the code signs up", async () => {
    const email = "Mail.Person@Example.com";
    const sent = await s.post("/api/notify/send_email", { to: email, type: 1 }, { lang: "fr" });
    expect(sent.code, sent.msg).toBe(1);
    await expect.poll(() => sink.messages(email).length).toBe(1);
    const [mail] = sink.messages(email);
    expect(mail).toMatchObject({
      channel: "email",
      to: "mail.person@example.com",
      subject: translate("fr", "accounts.mail_subject_register"),
    });
    const code = codeIn(mail)!;
    expect(code).toMatch(/^\d{6}$/);
    // The outbox row keeps neither the code nor a readable body.
    const row = s.up.ctx.db
      .prepare("SELECT code, body, status FROM outbox WHERE recipient = ?")
      .get("mail.person@example.com") as { code: string | null; body: string; status: string };
    expect(row).toMatchObject({ code: null, status: "sent" });
    expect(row.body).not.toContain(code);

    const reg = await s.post("/api/user/register", {
      type: "email",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: code,
    });
    expect(reg.code, reg.msg).toBe(1);
  });

  it("posts an SMS code to the gateway's webhook with its token; the code signs up", async () => {
    const hk = await hongKong();
    const number = "61234567";
    const sent = await s.post("/api/notify/send_sms", { to: number, area_id: hk.id, type: 1 });
    expect(sent.code, sent.msg).toBe(1);
    const to = `+${hk.cc}${number}`;
    await expect.poll(() => sink.messages(to).length).toBe(1);
    const [sms] = sink.messages(to);
    expect(sms).toMatchObject({ channel: "sms", authorization: "Bearer sms-gateway-token" });
    const reg = await s.post("/api/user/register", {
      type: "mobile",
      area_id: hk.id,
      mobile: number,
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: codeIn(sms)!,
    });
    expect(reg.code, reg.msg).toBe(1);
  });

  it("serves no code and no captcha answer under /dev", async () => {
    expect((await fetch(`${s.base}/dev/outbox?to=mail.person@example.com`)).status).toBe(404);
    expect((await fetch(`${s.base}/dev/captcha?id=abc`)).status).toBe(404);
  });

  it("answers 'could not be sent' and records the failure when the SMS gateway refuses", async () => {
    const gateway = http.createServer((_req, res) => {
      res.writeHead(503);
      res.end();
    });
    await new Promise<void>((r) => gateway.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/sms`;
    const refused = await startServer({ devOutbox: false, smsWebhookUrl: url });
    try {
      const hk = await hongKong();
      const sent = await refused.post("/api/notify/send_sms", {
        to: "61230000",
        area_id: hk.id,
        type: 1,
      });
      expect(sent).toMatchObject({ code: 0, msg: translate("en", "accounts.send_failed") });
      const row = refused.up.ctx.db.prepare("SELECT status, error FROM outbox").get();
      expect(row).toEqual({ status: "failed", error: "SMS webhook answered 503" });
    } finally {
      await refused.close();
      await new Promise((r) => gateway.close(r));
    }
  });
});
