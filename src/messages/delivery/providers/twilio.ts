import type { TwilioConfig } from "./config";
import { callProvider, field, isAnswer, retryableStatus } from "./http";
import { clip, type Outgoing, type Provider, type SendResult } from "./types";

/**
 * SMS through Twilio's Messages API
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`,
 * https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * HTTP Basic with the account SID and auth token, a form body with `To`,
 * `Body` and `From` (or `MessagingServiceSid`). Answers: 201 `{ sid, … }`
 * sent; errors `{ code, message, more_info, status }`: 429 and 5xx are
 * retried, any other 4xx (21211 invalid number, 21610 unsubscribed…) fails
 * the message. Twilio takes no idempotency key for this call.
 */
export function twilioProvider(config: TwilioConfig): Provider {
  return {
    name: "twilio",
    async send(message: Outgoing): Promise<SendResult> {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      if (config.messagingServiceSid) form.set("MessagingServiceSid", config.messagingServiceSid);
      else if (config.from) form.set("From", config.from);
      else {
        return {
          ok: false,
          retryable: false,
          error: "twilio: no sender (TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID)",
          retryAfterSeconds: null,
        };
      }
      const account = encodeURIComponent(config.accountSid);
      const answer = await callProvider(
        "twilio",
        `${config.baseUrl}/2010-04-01/Accounts/${account}/Messages.json`,
        {
          headers: {
            authorization: `Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
            "user-agent": "salon-api-messages/1",
          },
          body: form.toString(),
        },
      );
      if (!isAnswer(answer)) return answer;
      if (answer.status >= 200 && answer.status < 300) {
        return { ok: true, providerMessageId: field(answer.json, "sid") };
      }
      const code = field(answer.json, "code");
      const text = field(answer.json, "message");
      return {
        ok: false,
        retryable: retryableStatus(answer.status),
        error: clip(`twilio ${answer.status}${code ? ` ${code}` : ""}: ${text ?? "no message"}`),
        retryAfterSeconds: answer.retryAfterSeconds,
      };
    },
  };
}
