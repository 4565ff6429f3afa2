/** The longest name a stranger's message carries (code points); longer names are not used. */
export const MAX_PUBLIC_NAME = 40;
/** Words a name may have: a first name, not a sentence. */
const MAX_WORDS = 3;

/**
 * Letters and combining marks of any script, joined by single spaces, hyphens
 * or apostrophes (Jean-Luc, O'Brien, D’Angelo; ZWJ/ZWNJ for scripts that need
 * them). No digits, dots of any kind, `@`, `:`, `/` or other punctuation: a
 * link or an address cannot be written without one of those.
 */
const NAME = /^\p{L}[\p{L}\p{M}\u200C\u200D]*(?:[ '’-]\p{L}[\p{L}\p{M}\u200C\u200D]*)*$/u;

/**
 * A first name a stranger typed, as a message caused by a publishable key or
 * a link may carry it: the name itself when no mail or SMS client could read
 * it as a link, else null (the message greets without a name). The check runs
 * on the NFKC form, so full-width letters and dot lookalikes that fold into
 * ASCII (`．`, `․`) are judged as what they fold into; lookalikes that do not
 * fold (`。`, `·`) are punctuation and refused by the pattern. `www` and `xn--`
 * are refused even without a dot: both announce a host name.
 */
export function linkFreeName(name: string | null | undefined): string | null {
  if (!name) return null;
  const folded = name.normalize("NFKC").trim();
  if (folded.length === 0 || [...folded].length > MAX_PUBLIC_NAME) return null;
  if (!NAME.test(folded)) return null;
  const words = folded.toLowerCase().split(" ");
  if (words.length > MAX_WORDS) return null;
  if (words.some((w) => w.startsWith("www") || w.includes("xn--"))) return null;
  return folded;
}
