/** Which of the widget's languages a visitor gets. Pure: the unit tests run it under Node. */

export const LOCALES = ["en", "de", "fr", "es"] as const;
export type Locale = (typeof LOCALES)[number];

/** `de-AT` → `de`; null when the widget does not speak the tag's language. */
export function supported(tag: string | null | undefined): Locale | null {
  const base = (tag ?? "").trim().split(/[-_]/)[0]?.toLowerCase() ?? "";
  return (LOCALES as readonly string[]).includes(base) ? (base as Locale) : null;
}

export interface Chosen {
  /** The language the page speaks (its `<html lang>` and catalogue). */
  locale: Locale;
  /**
   * The tag Intl formats with: the visitor's own variant of that language when the browser
   * lists one (de-AT writes dates as Austria does, en-GB prices as Britain does), else the
   * language itself.
   */
  format: string;
}

/**
 * The `lang` query parameter when the widget speaks it, else the first of the browser's
 * languages it speaks (by base language), else English.
 */
export function chooseLocale(lang: string | null, languages: readonly string[]): Chosen {
  const locale =
    supported(lang) ?? languages.map(supported).find((l): l is Locale => l !== null) ?? "en";
  const variant = languages.find((tag) => supported(tag) === locale && validTag(tag));
  return { locale, format: variant ?? locale };
}

function validTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
