import { log } from "../../../platform/log";
import type { Provider } from "./types";

/**
 * No provider configured (the local default): the message counts as sent and
 * GET /messages shows exactly what the customer would have got. The log line
 * names the message only: its body carries the manage link's token and the
 * customer's details, which stay in D1.
 */
export const logProvider = (channel: "email" | "sms"): Provider => ({
  name: "log",
  async send(message) {
    log("info", "customer message (log provider, not sent anywhere)", {
      message_id: message.id,
      channel,
    });
    return { ok: true, providerMessageId: null };
  },
});
