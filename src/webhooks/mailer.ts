import { log } from "../platform/log";

/**
 * Notification e-mails go through this one interface. No mail server exists
 * here, so the default implementation only logs; a real one (an e-mail API
 * over fetch, or Cloudflare Email) replaces it without touching the consumer.
 */
export interface Mailer {
  send(message: { to: string[]; subject: string; text: string }): Promise<void>;
}

export const logMailer: Mailer = {
  async send(message) {
    log("info", "notification e-mail", { to: message.to, subject: message.subject });
  },
};
