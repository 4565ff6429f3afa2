/**
 * Display strings for minor-unit amounts, from Intl so each currency gets its
 * own symbol and number of decimals (JPY has none, KWD three).
 */
const formatters = new Map<string, Intl.NumberFormat>();

function formatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    formatters.set(key, f);
  }
  return f;
}

export function minorUnitDigits(currency: string): number {
  return formatter(currency, "en").resolvedOptions().maximumFractionDigits ?? 2;
}

export function formatMoney(minor: number, currency: string, locale = "en"): string {
  const f = formatter(currency, locale);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minor / 10 ** digits);
}
