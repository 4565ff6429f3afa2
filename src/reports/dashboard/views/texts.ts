/**
 * The dashboard's words in the languages customer messages have built in
 * (src/messages/rules/locale.ts; reports may not import messages, so the list
 * is repeated here). Any other workspace language reads English.
 */
export const DASHBOARD_LANGUAGES = ["en", "de", "fr", "es"] as const;
export type DashboardLanguage = (typeof DASHBOARD_LANGUAGES)[number];

export interface DashboardTexts {
  title: string;
  period: string;
  revenue: string;
  net: string;
  netTotal: string;
  utilization: string;
  utilizationTotal: string;
  noShows: string;
  bookings: string;
  attended: string;
  didntCome: string;
  lateCancels: string;
  noShowRate: string;
  lateCancelRate: string;
  fees: string;
  none: string;
  noWorkingTime: string;
  readOnly: string;
  gone: string;
  notFound: string;
  askAgain: string;
}

const en: DashboardTexts = {
  title: "Reports",
  period: "Period",
  revenue: "Revenue by day",
  net: "Net revenue",
  netTotal: "Net revenue in the period",
  utilization: "Utilization by staffer and day",
  utilizationTotal: "Utilization in the period",
  noShows: "No-shows and late cancellations",
  bookings: "Bookings due",
  attended: "Attended",
  didntCome: "No-shows",
  lateCancels: "Late cancellations",
  noShowRate: "No-show rate",
  lateCancelRate: "Late cancellation rate",
  fees: "Fees charged",
  none: "–",
  noWorkingTime: "no working time",
  readOnly: "Read-only view. The link expires on {date}.",
  gone: "This link has expired or was withdrawn.",
  notFound: "This link opens nothing.",
  askAgain: "Ask for a new link.",
};

const de: DashboardTexts = {
  title: "Berichte",
  period: "Zeitraum",
  revenue: "Umsatz pro Tag",
  net: "Nettoumsatz",
  netTotal: "Nettoumsatz im Zeitraum",
  utilization: "Auslastung nach Mitarbeiter und Tag",
  utilizationTotal: "Auslastung im Zeitraum",
  noShows: "Nichterscheinen und späte Absagen",
  bookings: "Fällige Buchungen",
  attended: "Erschienen",
  didntCome: "Nicht erschienen",
  lateCancels: "Späte Absagen",
  noShowRate: "Nichterscheinen-Quote",
  lateCancelRate: "Quote später Absagen",
  fees: "Berechnete Gebühren",
  none: "–",
  noWorkingTime: "keine Arbeitszeit",
  readOnly: "Nur zum Ansehen. Der Link läuft am {date} ab.",
  gone: "Dieser Link ist abgelaufen oder wurde zurückgezogen.",
  notFound: "Dieser Link öffnet nichts.",
  askAgain: "Bitten Sie um einen neuen Link.",
};

const fr: DashboardTexts = {
  title: "Rapports",
  period: "Période",
  revenue: "Chiffre d’affaires par jour",
  net: "Chiffre d’affaires net",
  netTotal: "Chiffre d’affaires net de la période",
  utilization: "Taux d’occupation par employé et par jour",
  utilizationTotal: "Taux d’occupation de la période",
  noShows: "Absences et annulations tardives",
  bookings: "Réservations dues",
  attended: "Venus",
  didntCome: "Absents",
  lateCancels: "Annulations tardives",
  noShowRate: "Taux d’absence",
  lateCancelRate: "Taux d’annulation tardive",
  fees: "Frais facturés",
  none: "–",
  noWorkingTime: "pas de temps de travail",
  readOnly: "Consultation seule. Le lien expire le {date}.",
  gone: "Ce lien a expiré ou a été retiré.",
  notFound: "Ce lien n’ouvre rien.",
  askAgain: "Demandez un nouveau lien.",
};

const es: DashboardTexts = {
  title: "Informes",
  period: "Periodo",
  revenue: "Ingresos por día",
  net: "Ingresos netos",
  netTotal: "Ingresos netos del periodo",
  utilization: "Ocupación por empleado y día",
  utilizationTotal: "Ocupación del periodo",
  noShows: "Ausencias y cancelaciones tardías",
  bookings: "Reservas previstas",
  attended: "Asistieron",
  didntCome: "No asistieron",
  lateCancels: "Cancelaciones tardías",
  noShowRate: "Tasa de ausencias",
  lateCancelRate: "Tasa de cancelaciones tardías",
  fees: "Cargos cobrados",
  none: "–",
  noWorkingTime: "sin horario de trabajo",
  readOnly: "Solo lectura. El enlace caduca el {date}.",
  gone: "Este enlace ha caducado o se ha retirado.",
  notFound: "Este enlace no abre nada.",
  askAgain: "Pida un enlace nuevo.",
};

export const TEXTS: Record<DashboardLanguage, DashboardTexts> = { en, de, fr, es };

/**
 * The workspace's language and the tag numbers and dates are written in:
 * `de-AT` → German, formatted de-AT; a language without texts → English, `en`.
 */
export function dashboardLocale(tag: string): { language: DashboardLanguage; locale: string } {
  let canonical = "en";
  try {
    canonical = Intl.getCanonicalLocales(tag.replace(/_/g, "-"))[0] ?? "en";
  } catch {
    // A tag Intl refuses reads English.
  }
  const lang = canonical.split("-")[0] ?? "en";
  const language = (DASHBOARD_LANGUAGES as readonly string[]).includes(lang)
    ? (lang as DashboardLanguage)
    : "en";
  return { language, locale: language === lang ? canonical : "en" };
}
