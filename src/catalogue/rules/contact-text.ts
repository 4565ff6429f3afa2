/**
 * Service names must not carry a website or e-mail address (the reference:
 * such text is stripped and the request rejected), so widgets cannot be used
 * to advertise elsewhere. A domain counts only with a known top-level domain,
 * so "Dr.Hair" or "Cut & Blow-dry 2.5h" stay legal names.
 */
const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
const URL_START = /\b(?:https?:\/\/|ftp:\/\/|www\.)\S+/i;
const TLDS =
  "com|net|org|info|biz|io|co|me|app|dev|shop|store|online|site|website|link|xyz|eu|de|at|ch|uk|fr|es|it|nl|be|pl|ru|us|ca|au|nz|se|no|dk|fi|cz|pt|ie";
const DOMAIN = new RegExp(
  `\\b[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9-]+)*\\.(?:${TLDS})\\b(?:/\\S*)?`,
  "i",
);

export function findContactText(text: string): string | null {
  const match = EMAIL.exec(text) ?? URL_START.exec(text) ?? DOMAIN.exec(text);
  return match ? match[0] : null;
}

/** The name with addresses removed, to show the client what would be acceptable. */
export function stripContactText(text: string): string {
  return text
    .replace(new RegExp(EMAIL.source, "gi"), "")
    .replace(new RegExp(URL_START.source, "gi"), "")
    .replace(new RegExp(DOMAIN.source, "gi"), "")
    .replace(/\s{2,}/g, " ")
    .trim();
}
