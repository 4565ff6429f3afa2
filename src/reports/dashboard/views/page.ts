import { formatMoney } from "../../../platform/rules/money";
import type { DashboardFigures, DashboardPayload } from "./figures";
import { escapeHtml, scriptJson } from "./html";
import type { DashboardLanguage, DashboardTexts } from "./texts";

/** The page's own script and styles, built into the static assets (scripts/build-assets.mjs). */
export const DASHBOARD_SCRIPT = "/dashboard/dashboard.js";
export const DASHBOARD_STYLES = "/dashboard/dashboard.css";

export interface DashboardView {
  language: DashboardLanguage;
  locale: string;
  texts: DashboardTexts;
  currency: string;
  locationName: string;
  from: string;
  to: string;
  expiresAt: number;
  timezone: string;
  figures: DashboardFigures;
}

const dateOf = (locale: string, date: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(
    Date.parse(`${date}T00:00:00Z`),
  );

function percent(locale: string, share: number | null, none: string) {
  if (share === null) return none;
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(
    share,
  );
}

function shell(view: Pick<DashboardView, "language" | "texts">, title: string, body: string) {
  return `<!doctype html>
<html lang="${view.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${DASHBOARD_STYLES}">
</head>
<body>
${body}
</body>
</html>
`;
}

const figure = (label: string, value: string) =>
  `<div class="figure"><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd></div>`;

/** The dashboard: headings and totals as text, the charts drawn by the page's script from its JSON. */
export function renderDashboardPage(view: DashboardView): string {
  const { texts: t, locale, currency, figures: f } = view;
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const count = (n: number) => new Intl.NumberFormat(locale).format(n);
  const expires = new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: view.timezone,
  }).format(view.expiresAt);
  const attended = Math.max(0, f.noShows.bookings - f.noShows.didntCome - f.noShows.lateCancels);
  const payload: DashboardPayload = {
    locale,
    currency,
    labels: {
      net: t.net,
      utilization: t.utilization,
      attended: t.attended,
      didntCome: t.didntCome,
      lateCancels: t.lateCancels,
    },
    revenue: { dates: f.revenue.dates, net: f.revenue.net },
    utilization: {
      dates: f.utilization.dates,
      staffers: f.utilization.staffers,
      cells: f.utilization.cells,
    },
    noShows: { attended, didntCome: f.noShows.didntCome, lateCancels: f.noShows.lateCancels },
  };
  const title = `${t.title} – ${view.locationName}`;
  const body = `<main>
<header>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t.period)}: ${escapeHtml(dateOf(locale, view.from))} – ${escapeHtml(dateOf(locale, view.to))}</p>
</header>
<section aria-labelledby="revenue-title">
<h2 id="revenue-title">${escapeHtml(t.revenue)}</h2>
<dl class="figures">${figure(t.netTotal, money(f.revenue.totalNet))}</dl>
<div class="chart"><canvas id="revenue-chart" role="img" aria-label="${escapeHtml(`${t.revenue}: ${t.netTotal} ${money(f.revenue.totalNet)}`)}"></canvas></div>
</section>
<section aria-labelledby="utilization-title">
<h2 id="utilization-title">${escapeHtml(t.utilization)}</h2>
<dl class="figures">${figure(t.utilizationTotal, percent(locale, f.utilization.total, t.none))}</dl>
<div class="chart heat"><canvas id="utilization-chart" role="img" aria-label="${escapeHtml(`${t.utilization}: ${t.utilizationTotal} ${percent(locale, f.utilization.total, t.none)}`)}"></canvas></div>
<p class="legend">${escapeHtml(percent(locale, 0, t.none))} <span class="scale" aria-hidden="true"></span> ${escapeHtml(percent(locale, 1, t.none))} <span class="off" aria-hidden="true"></span> ${escapeHtml(t.noWorkingTime)}</p>
</section>
<section aria-labelledby="no-shows-title">
<h2 id="no-shows-title">${escapeHtml(t.noShows)}</h2>
<dl class="figures">${[
    figure(t.bookings, count(f.noShows.bookings)),
    figure(t.noShowRate, percent(locale, f.noShows.noShowRate, t.none)),
    figure(t.lateCancelRate, percent(locale, f.noShows.lateCancelRate, t.none)),
    figure(t.fees, money(f.noShows.fees)),
  ].join("")}</dl>
<div class="chart small"><canvas id="no-shows-chart" role="img" aria-label="${escapeHtml(`${t.noShows}: ${t.attended} ${count(attended)}, ${t.didntCome} ${count(f.noShows.didntCome)}, ${t.lateCancels} ${count(f.noShows.lateCancels)}`)}"></canvas></div>
</section>
<footer><p>${escapeHtml(t.readOnly.replace("{date}", expires))}</p></footer>
</main>
<script type="application/json" id="dashboard-data">${scriptJson(payload)}</script>
<script type="module" src="${DASHBOARD_SCRIPT}"></script>`;
  return shell(view, title, body);
}

/** What a link that opens nothing shows: a plain page, no data. */
export function renderRefusal(
  view: Pick<DashboardView, "language" | "texts">,
  gone: boolean,
): string {
  const t = view.texts;
  const message = gone ? t.gone : t.notFound;
  return shell(
    view,
    t.title,
    `<main><h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(message)} ${escapeHtml(t.askAgain)}</p></main>`,
  );
}
