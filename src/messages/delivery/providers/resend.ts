import type { ResendConfig } from "./config";
import { callProvider, field, isAnswer, retryableStatus } from "./http";
import { clip, type Outgoing, type Provider, type SendResult } from "./types";

/**
 * E-mail through Resend's API (`POST /emails`, https://resend.com/docs/api-reference/emails/send-email):
 * Bearer API key, JSON `{ from, to, subject, text, reply_to }`. The message id
 * is the `Idempotency-Key`, so a retry after a send whose outcome was lost
 * (a timeout, a delivery that died before recording it) is not a second e-mail
 * while Resend remembers the key (24 hours).
 * Answers: 200 `{ id }` sent; errors `{ statusCode, name, message }`: 429, 5xx
 * and 409 `concurrent_idempotent_requests` (the same key in flight) are
 * retried, any other 4xx fails the message.
 */
export function resendProvider(config: ResendConfig): Provider {
  return {
    name: "resend",
    async send(message: Outgoing): Promise<SendResult> {
      const fromEmail = message.sender.fromEmail ?? config.defaultFrom;
      if (!fromEmail) {
        return {
          ok: false,
          retryable: false,
          error:
            "resend: no sender address (notification settings' email.from_email, or EMAIL_FROM)",
          retryAfterSeconds: null,
        };
      }
      const body: Record<string, unknown> = {
        from: mailbox(message.sender.fromName, fromEmail),
        to: [message.to],
        subject: message.subject ?? "",
        text: message.body,
      };
      if (message.sender.replyTo) body.reply_to = message.sender.replyTo;
      const answer = await callProvider("resend", `${config.baseUrl}/emails`, {
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": message.id,
          "user-agent": "salon-api-messages/1",
        },
        body: JSON.stringify(body),
      });
      if (!isAnswer(answer)) return answer;
      if (answer.status >= 200 && answer.status < 300) {
        return { ok: true, providerMessageId: field(answer.json, "id") };
      }
      const name = field(answer.json, "name");
      const text = field(answer.json, "message");
      return {
        ok: false,
        retryable:
          retryableStatus(answer.status) ||
          (answer.status === 409 && name === "concurrent_idempotent_requests"),
        error: clip(`resend ${answer.status}${name ? ` ${name}` : ""}: ${text ?? "no message"}`),
        retryAfterSeconds: answer.retryAfterSeconds,
      };
    },
  };
}

/**
 * `Name <address>`: the display name quoted when it holds anything but plain
 * words (RFC 5322), line breaks dropped so no header can be smuggled in.
 */
export function mailbox(name: string | null, address: string): string {
  const clean = (name ?? "").replace(/[\r\n]+/g, " ").trim();
  if (!clean) return address;
  const plain = /^[\p{L}\p{N} ]+$/u.test(clean);
  const display = plain ? clean : `"${clean.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return `${display} <${address}>`;
}
