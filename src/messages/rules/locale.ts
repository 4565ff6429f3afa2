/** The languages every kind has built-in texts in. */
export const BUILT_IN_LOCALES = ["en", "de", "fr", "es"] as const;
export type BuiltInLocale = (typeof BUILT_IN_LOCALES)[number];

/** A locale tag as the settings and customers carry it: `de`, `de-AT`. */
export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * `de_at`, `DE-at` → `de-AT`; anything that is not a tag Intl accepts → null
 * (a browser may send `en-US-US`, which the pattern alone lets through but
 * every date formatter refuses).
 */
export function normaliseLocale(tag: string | null | undefined): string | null {
  if (!tag) return null;
  const first = tag.split(",")[0]?.split(";")[0]?.trim().replace(/_/g, "-") ?? "";
  const [lang = "", ...rest] = first.split("-");
  const out = [lang.toLowerCase(), ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p))]
    .filter(Boolean)
    .join("-");
  if (!LOCALE_PATTERN.test(out)) return null;
  try {
    return Intl.getCanonicalLocales(out)[0] ?? null;
  } catch {
    return null;
  }
}

const languageOf = (tag: string) => tag.split("-")[0] ?? tag;

/**
 * Where a message looks for its text, most specific first:
 * the customer's tag, its language, the workspace's tag and language, then `en`.
 * `de-AT` in an `fr` workspace → `de-AT, de, fr, en`.
 */
export function localeChain(customer: string | null | undefined, workspace: string): string[] {
  const chain: string[] = [];
  for (const tag of [normaliseLocale(customer), normaliseLocale(workspace)]) {
    if (!tag) continue;
    chain.push(tag, languageOf(tag));
  }
  chain.push("en");
  return [...new Set(chain)];
}

/** The tag dates are written in: the customer's own when it is of the chosen language. */
export function formatLocale(chain: string[], chosen: string): string {
  const first = chain[0] ?? chosen;
  return languageOf(first) === languageOf(chosen) ? first : chosen;
}
