/**
 * The dashboard's charts, drawn from the JSON the page carries (the page makes
 * no request): Chart.js bars of the net revenue by day, a chartjs-chart-matrix
 * heat map of utilization by staffer and day, a doughnut of the due bookings.
 * Numbers and dates in the owner's language and the workspace's currency.
 */
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  Tooltip,
} from "chart.js";
import { MatrixController, MatrixElement } from "chartjs-chart-matrix";
import type { DashboardPayload } from "../src/reports/dashboard/views/figures";

Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  MatrixController,
  MatrixElement,
  Tooltip,
);

const INK = "#1f2937";
const GRID = "#e5e7eb";
const BLUE = "#1d4ed8";

const element = document.getElementById("dashboard-data");
const data = JSON.parse(element?.textContent ?? "null") as DashboardPayload | null;
if (data) draw(data);

function canvas(id: string): HTMLCanvasElement {
  const found = document.getElementById(id);
  if (!(found instanceof HTMLCanvasElement)) throw new Error(`no canvas #${id}`);
  return found;
}

function draw(d: DashboardPayload) {
  const money = new Intl.NumberFormat(d.locale, { style: "currency", currency: d.currency });
  const digits = money.resolvedOptions().maximumFractionDigits ?? 2;
  const major = (minor: number) => minor / 10 ** digits;
  const percent = new Intl.NumberFormat(d.locale, { style: "percent", maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(d.locale);
  const day = new Intl.DateTimeFormat(d.locale, {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
  const longDay = new Intl.DateTimeFormat(d.locale, { dateStyle: "full", timeZone: "UTC" });
  const dateOf = (iso: string) => new Date(`${iso}T00:00:00Z`);

  Chart.defaults.color = INK;
  Chart.defaults.font.family = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  // Figures to read, not to watch: drawn at once (and so in screenshots).
  Chart.defaults.animation = false;
  Chart.defaults.maintainAspectRatio = false;
  Chart.defaults.responsive = true;
  Chart.defaults.locale = d.locale;

  const dayLabels = d.revenue.dates.map((iso) => day.format(dateOf(iso)));
  new Chart(canvas("revenue-chart"), {
    type: "bar",
    data: {
      labels: dayLabels,
      datasets: [{ label: d.labels.net, data: d.revenue.net.map(major), backgroundColor: BLUE }],
    },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) =>
              longDay.format(dateOf(d.revenue.dates[items[0]?.dataIndex ?? 0] ?? "")),
            label: (item) => `${d.labels.net}: ${money.format(item.parsed.y ?? 0)}`,
          },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { autoSkip: true, maxRotation: 0 } },
        y: {
          grid: { color: GRID },
          ticks: { callback: (v) => money.format(Number(v)) },
        },
      },
    },
  });

  const u = d.utilization;
  const heat = canvas("utilization-chart");
  // A row per staffer, readable however many there are.
  const box = heat.parentElement;
  if (box) box.style.height = `${Math.max(160, 48 + u.staffers.length * 28)}px`;
  const uDays = u.dates.map((iso) => day.format(dateOf(iso)));
  const cells = u.staffers.flatMap((staffer, row) =>
    u.dates.map((_, col) => ({ x: uDays[col] ?? "", y: staffer, v: u.cells[row]?.[col] ?? null })),
  );
  new Chart(heat, {
    type: "matrix",
    data: {
      datasets: [
        {
          label: d.labels.utilization,
          data: cells,
          backgroundColor: (ctx) => {
            const v = (ctx.raw as { v: number | null } | undefined)?.v;
            if (v === null || v === undefined) return "#f3f4f6";
            return `rgba(29, 78, 216, ${0.08 + 0.92 * Math.min(1, Math.max(0, v))})`;
          },
          borderColor: "#ffffff",
          borderWidth: 1,
          width: ({ chart }) => (chart.chartArea?.width ?? 0) / Math.max(1, u.dates.length),
          height: ({ chart }) => (chart.chartArea?.height ?? 0) / Math.max(1, u.staffers.length),
        },
      ],
    },
    options: {
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: () => "",
            label: (item) => {
              const raw = item.raw as { x: string; y: string; v: number | null };
              return `${raw.y}, ${raw.x}: ${raw.v === null ? "–" : percent.format(raw.v)}`;
            },
          },
        },
      },
      scales: {
        x: {
          type: "category",
          labels: uDays,
          offset: true,
          grid: { display: false },
          ticks: { autoSkip: true, maxRotation: 0 },
        },
        y: {
          type: "category",
          labels: u.staffers,
          offset: true,
          grid: { display: false },
        },
      },
    },
  });

  const n = d.noShows;
  new Chart(canvas("no-shows-chart"), {
    type: "doughnut",
    data: {
      labels: [d.labels.attended, d.labels.didntCome, d.labels.lateCancels],
      datasets: [
        {
          data: [n.attended, n.didntCome, n.lateCancels],
          backgroundColor: [BLUE, "#b91c1c", "#d97706"],
        },
      ],
    },
    options: {
      plugins: {
        legend: { position: "bottom" },
        tooltip: {
          callbacks: { label: (item) => `${item.label}: ${count.format(Number(item.raw))}` },
        },
      },
    },
  });
}
