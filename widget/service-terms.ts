import type { Service } from "./types";

/**
 * A service's duration and price as the customer reads them, in the browser's language
 * (`locale` undefined) and the service's currency, showing only what the service shows.
 */

type Terms = Pick<
  Service,
  "price" | "discount" | "currency" | "is_duration_hidden" | "is_price_hidden" | "starting_at"
> & { duration: Pick<Service["duration"], "value"> };

const unit = (locale: string | undefined, u: "hour" | "minute", n: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: u, unitDisplay: "short" }).format(n);

/** "45 min", "1 hr 30 min", "1 Std., 30 Min.": hours and minutes, as the language joins units. */
export function formatDuration(minutes: number, locale?: string): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [
    ...(hours > 0 ? [unit(locale, "hour", hours)] : []),
    ...(rest > 0 || hours === 0 ? [unit(locale, "minute", rest)] : []),
  ];
  return new Intl.ListFormat(locale, { type: "unit", style: "narrow" }).format(parts);
}

/** Minor units (the API's money) in the currency's own number of decimals (JPY none, KWD three). */
export function formatPrice(minor: number, currency: string, locale?: string): string {
  const f = new Intl.NumberFormat(locale, { style: "currency", currency });
  return f.format(minor / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
}

/**
 * "45 min · €35.00"; the part a service hides is left out with the separator, "" when both
 * are. The price is what a client pays (`discount`: the discounted price when one is set),
 * and a starting price (`starting_at`) reads "from …" (`from` words it in the page's language).
 */
export function serviceTerms(
  s: Terms,
  locale?: string,
  from: (price: string) => string = (price) => `from ${price}`,
): string {
  const price = formatPrice(s.discount, s.currency, locale);
  return [
    s.is_duration_hidden ? null : formatDuration(s.duration.value, locale),
    s.is_price_hidden ? null : s.starting_at ? from(price) : price,
  ]
    .filter((part) => part !== null)
    .join(" · ");
}
