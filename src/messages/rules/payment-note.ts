import { formatMoney } from "../../platform/rules/money";
import { BUILT_IN_LOCALES, type BuiltInLocale } from "./locale";

/**
 * What a booking's customer paid online and what its fees are, in minor
 * units, as the confirmation tells it (the terms the checkout was paid under).
 */
export interface PaymentNote {
  /** Paid online when booking (a deposit or the whole price; 0 when only a card was saved). */
  paid: number;
  lateCancel: { windowMinutes: number; fee: number } | null;
  noShowFee: number | null;
}

/** A fee the customer was charged, as the `payment-fee-charged` message tells it. */
export interface FeeNote {
  kind: "late_cancel_fee" | "no_show_fee";
  amount: number;
}

interface Phrases {
  paid: (amount: string) => string;
  lateAndNoShow: (window: string, fee: string, noShow: string) => string;
  late: (window: string, fee: string) => string;
  /** A late-cancel fee without a window before the start (window 0). */
  lateAnyTime: (fee: string) => string;
  noShow: (fee: string) => string;
  reasons: Record<FeeNote["kind"], string>;
}

const PHRASES: Record<BuiltInLocale, Phrases> = {
  en: {
    paid: (a) => `Paid online: ${a}.`,
    lateAndNoShow: (w, f, n) =>
      `Cancelling less than ${w} before costs ${f}; a no-show costs ${n}.`,
    late: (w, f) => `Cancelling less than ${w} before costs ${f}.`,
    lateAnyTime: (f) => `A late cancellation costs ${f}.`,
    noShow: (n) => `A no-show costs ${n}.`,
    reasons: { late_cancel_fee: "a late cancellation", no_show_fee: "not coming to the booking" },
  },
  de: {
    paid: (a) => `Online bezahlt: ${a}.`,
    lateAndNoShow: (w, f, n) =>
      `Eine Absage weniger als ${w} vorher kostet ${f}; Nichterscheinen kostet ${n}.`,
    late: (w, f) => `Eine Absage weniger als ${w} vorher kostet ${f}.`,
    lateAnyTime: (f) => `Eine kurzfristige Absage kostet ${f}.`,
    noShow: (n) => `Nichterscheinen kostet ${n}.`,
    reasons: {
      late_cancel_fee: "eine kurzfristige Absage",
      no_show_fee: "Nichterscheinen zum Termin",
    },
  },
  fr: {
    paid: (a) => `Payé en ligne : ${a}.`,
    lateAndNoShow: (w, f, n) =>
      `Une annulation moins de ${w} avant coûte ${f} ; une absence coûte ${n}.`,
    late: (w, f) => `Une annulation moins de ${w} avant coûte ${f}.`,
    lateAnyTime: (f) => `Une annulation tardive coûte ${f}.`,
    noShow: (n) => `Une absence coûte ${n}.`,
    reasons: {
      late_cancel_fee: "une annulation tardive",
      no_show_fee: "une absence au rendez-vous",
    },
  },
  es: {
    paid: (a) => `Pagado en línea: ${a}.`,
    lateAndNoShow: (w, f, n) =>
      `Cancelar con menos de ${w} de antelación cuesta ${f}; no presentarse cuesta ${n}.`,
    late: (w, f) => `Cancelar con menos de ${w} de antelación cuesta ${f}.`,
    lateAnyTime: (f) => `Una cancelación tardía cuesta ${f}.`,
    noShow: (n) => `No presentarse cuesta ${n}.`,
    reasons: { late_cancel_fee: "una cancelación tardía", no_show_fee: "no presentarse a la cita" },
  },
};

/** The built-in language a formatting locale speaks (`de-AT` → de), else English. */
function phrasesFor(locale: string): Phrases {
  const language = locale.split("-")[0] ?? "en";
  return (BUILT_IN_LOCALES as readonly string[]).includes(language)
    ? PHRASES[language as BuiltInLocale]
    : PHRASES.en;
}

/** A window before the start in the locale's words: whole hours as hours, else minutes. */
function windowText(minutes: number, locale: string): string {
  const [value, unit] = minutes % 60 === 0 ? [minutes / 60, "hour"] : [minutes, "minute"];
  return new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(value);
}

/**
 * The confirmation's sentence about money: what was paid online and what a
 * late cancel or a no-show costs ("Paid online: €12.00. Cancelling less than
 * 24 hours before costs €10.00; a no-show costs €20.00."); empty when the
 * booking took nothing and has no fees.
 */
export function paymentText(note: PaymentNote | undefined, currency: string, locale: string) {
  if (!note) return "";
  const p = phrasesFor(locale);
  const money = (amount: number) => formatMoney(amount, currency, locale);
  const parts: string[] = [];
  if (note.paid > 0) parts.push(p.paid(money(note.paid)));
  const late = note.lateCancel;
  const noShow = note.noShowFee;
  if (late && late.windowMinutes > 0 && noShow !== null)
    parts.push(
      p.lateAndNoShow(windowText(late.windowMinutes, locale), money(late.fee), money(noShow)),
    );
  else {
    if (late)
      parts.push(
        late.windowMinutes > 0
          ? p.late(windowText(late.windowMinutes, locale), money(late.fee))
          : p.lateAnyTime(money(late.fee)),
      );
    if (noShow !== null) parts.push(p.noShow(money(noShow)));
  }
  return parts.join(" ");
}

/** Why a fee was charged, in the locale's words ("a late cancellation"). */
export const feeReason = (kind: FeeNote["kind"], locale: string) =>
  phrasesFor(locale).reasons[kind];
