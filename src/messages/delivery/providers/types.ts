/** One message as a provider sends it: rendered already, with its workspace's sender. */
export interface Outgoing {
  /** The message's id: the idempotency key where the provider takes one. */
  id: string;
  to: string;
  subject: string | null;
  body: string;
  sender: Sender;
}

/** Who an e-mail is from, from the message's own workspace's notification settings. */
export interface Sender {
  fromEmail: string | null;
  fromName: string | null;
  replyTo: string | null;
}

/**
 * What one send came to: sent (with the provider's id for it), or not, and
 * then whether trying again may help (a timeout, 429, 5xx) or not (the
 * provider refused the message itself: 4xx).
 */
export type SendResult =
  | { ok: true; providerMessageId: string | null }
  | { ok: false; retryable: boolean; error: string; retryAfterSeconds: number | null };

export interface Provider {
  /** Recorded on the message (`provider`). */
  name: string;
  send(message: Outgoing): Promise<SendResult>;
}

/** How long a provider may take to answer; well inside a delivery's lease. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/** Errors are stored on the message and shown by GET /messages: short. */
export const MAX_ERROR_LENGTH = 500;

export const clip = (text: string) =>
  text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
