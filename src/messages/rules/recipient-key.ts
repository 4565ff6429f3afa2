import type { Channel } from "./kinds";

/** Mail domains that ignore dots in the local part (ada.l@ and adal@ are one mailbox). */
const DOTLESS_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/**
 * The mailbox or phone a message reaches, as the per-recipient bound counts
 * it: an SMS by its E.164 number; an e-mail case-folded, without a `+tag`
 * (ada+1@ and ada+2@ reach one inbox at most providers) and, where the
 * provider ignores them, without dots in the local part. A stranger cannot
 * step around the bound by spelling one inbox many ways.
 */
export function recipientKey(channel: Channel, to: string): string {
  if (channel === "sms") return `sms:${to}`;
  const address = to.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return `email:${address}`;
  const domain = address.slice(at + 1);
  let local = address.slice(0, at).split("+")[0] ?? "";
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll(".", "");
  return `email:${local}@${domain === "googlemail.com" ? "gmail.com" : domain}`;
}
