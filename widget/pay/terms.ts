import type { Translate } from "../i18n/messages";
import { formatPrice } from "../service-terms";
import type { PaymentTerms } from "../types";

/**
 * A reservation's payment terms in the customer's words: what the pay button says and the
 * policy sentences under it. Pure (Intl only), so the unit tests run it under Node.
 */

const unit = (locale: string, u: "day" | "hour" | "minute", n: number) =>
  new Intl.NumberFormat(locale, { style: "unit", unit: u, unitDisplay: "long" }).format(n);

/**
 * A late-cancel window as a span: whole days from two days up ("3 days"), else whole hours
 * ("24 hours"), else hours and minutes ("1 hour, 30 minutes"), as the language joins units.
 */
export function windowWords(minutes: number, locale: string): string {
  if (minutes >= 2880 && minutes % 1440 === 0) return unit(locale, "day", minutes / 1440);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const parts = [
    ...(hours > 0 ? [unit(locale, "hour", hours)] : []),
    ...(rest > 0 ? [unit(locale, "minute", rest)] : []),
  ];
  return new Intl.ListFormat(locale, { type: "unit", style: "long" }).format(parts);
}

const money = (terms: PaymentTerms, minor: number, locale: string) =>
  formatPrice(minor, terms.currency, locale);

/** "Pay deposit €12.00", "Pay €80.00" or "Save a card". */
export function payAction(terms: PaymentTerms, locale: string, t: Translate): string {
  const amount = money(terms, terms.amount_due_now, locale);
  if (terms.mode === "deposit") return t("pay.deposit", { amount });
  if (terms.mode === "prepay") return t("pay.prepay", { amount });
  return t("pay.card_on_file");
}

/** What the confirmation says was paid: "Paid €12.00", or that the card is kept. */
export function paidWords(terms: PaymentTerms, locale: string, t: Translate): string {
  return terms.amount_due_now > 0
    ? t("done.paid", { amount: money(terms, terms.amount_due_now, locale) })
    : t("done.card_saved");
}

/** The policy in sentences: late cancel, then no-show; none when the terms have neither. */
export function policySentences(terms: PaymentTerms, locale: string, t: Translate): string[] {
  const sentences: string[] = [];
  const late = terms.late_cancel;
  // A zero window charges no cancel before the start: only the no-show fee can apply.
  if (late && late.window_minutes > 0)
    sentences.push(
      t("pay.late_cancel", {
        time: windowWords(late.window_minutes, locale),
        fee: money(terms, late.fee, locale),
      }),
    );
  else if (late) sentences.push(t("pay.free_until_start"));
  if (terms.no_show_fee !== null)
    sentences.push(t("pay.no_show", { fee: money(terms, terms.no_show_fee, locale) }));
  return sentences;
}
