import { formatDuration, formatPrice } from "./service-terms";
import type { Booking, PaymentTerms, SentTo, Service } from "./types";

/**
 * What the summary panel says of a choice, in the customer's language. Pure (Intl only).
 * A total a service hides (its duration or its price) is not shown at all: a sum without
 * it would mislead.
 */
export interface ChoiceTotals {
  /** "1 hr 5 min", or null when a service hides its duration. */
  duration: string | null;
  /** "€50.00", "from €50.00" (a starting price among them), or null when one hides its price. */
  price: string | null;
  /** What is paid online now (deposit, prepayment; a card kept: nothing), or null. */
  dueNow: string | null;
}

export function choiceTotals(
  services: Service[],
  seats: Record<string, number>,
  payment: PaymentTerms | null,
  locale: string,
  from: (price: string) => string,
): ChoiceTotals {
  const any = services.length > 0;
  const minutes = services.reduce((sum, s) => sum + s.duration.value, 0);
  const currency = services[0]?.currency;
  const sameCurrency = services.every((s) => s.currency === currency);
  const amount = services.reduce((sum, s) => sum + s.discount * (seats[s.uuid] ?? 1), 0);
  const price =
    any && currency && sameCurrency && services.every((s) => !s.is_price_hidden)
      ? formatPrice(amount, currency, locale)
      : null;
  return {
    duration:
      any && services.every((s) => !s.is_duration_hidden) ? formatDuration(minutes, locale) : null,
    price: price && services.some((s) => s.starting_at) ? from(price) : price,
    dueNow: payment ? formatPrice(payment.amount_due_now, payment.currency, locale) : null,
  };
}

/** Each address a confirmation went to, once (a cart's bookings share one customer). */
export function sentTo(bookings: Booking[]): SentTo[] {
  const seen = new Set<string>();
  return bookings
    .flatMap((b) => b.confirmation_sent_to ?? [])
    .filter((s) => {
      const key = `${s.channel} ${s.to}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
