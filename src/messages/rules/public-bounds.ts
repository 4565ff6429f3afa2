/**
 * Messages that requests with a publishable key or without a key (manage
 * and offer links) may make a workspace send to one recipient (a phone, an
 * inbox as `recipientKey` spells it) in a UTC day, whoever asks and from
 * whichever address; past it a message is recorded `skipped` with
 * `recipient_quota`. Reminders count (a booking's reminder is a message its
 * booking caused). The workspace's own (secret-key) messages neither count
 * nor are bounded.
 */
export const PUBLIC_RECIPIENT_MESSAGES = { perRecipient: 10 } as const;

/** Days since the epoch (UTC): the day the public bounds count a message in. */
export const utcDay = (at: number) => Math.floor(at / 86_400_000);
