import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { sweep } from "./a11y-checks";
import { launch, PHONE, shot } from "./browser";
import { queryD1 } from "./d1";
import { call } from "./salon";

/**
 * The reports dashboard in Chromium: a German salon with two weeks of history
 * in its rollups, opened from a dashboard link on a desktop and on a phone.
 * The three charts are drawn, the words are German, no request leaves the
 * host, axe finds nothing, and each layout leaves a screenshot.
 */

const { base } = inject("salon");
const persist = inject("persist");

const FROM = "2026-10-05"; // a Monday
const DAYS = 14;
const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

interface Seeded {
  url: string;
  staffers: string[];
}

/**
 * A salon whose rollups hold two weeks of revenue, staff time and bookings
 * (what the triggers and order batches keep; written here directly, as the
 * server's clock cannot be moved back two weeks to make them by hand).
 */
async function seed(): Promise<Seeded> {
  const admin = <T>(path: string, body: unknown) =>
    call<T>(base, `/api/admin/v1${path}`, { method: "POST", body });
  const ws = await admin<{ uuid: string; api_key: string }>("/workspaces", {
    name: "Salon Sonne",
    country: "DE",
    currency: "EUR",
    locale: "de-DE",
    timezone: "Europe/Berlin",
  });
  const loc = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: "Salon Sonne Mitte",
    timezone: "Europe/Berlin",
  });
  const schedule = [1, 2, 3, 4, 5, 6].map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "09:00",
    end: "18:00",
  }));
  const names = [
    ["Mia", "Wagner"],
    ["Jonas", "Becker"],
    ["Lea", "Schmidt"],
    ["Emil", "Fischer"],
  ];
  const staffers: string[] = [];
  for (const [first_name, last_name] of names)
    staffers.push(
      (
        await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/staffers`, {
          first_name,
          last_name,
          location_uuids: [loc.uuid],
          schedule,
        })
      ).uuid,
    );
  const first = dayNumber(FROM);
  // The link first: the SQL below keeps the API idle long enough for its connection to go stale.
  const to = new Date((first + DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const link = await call<{ url: string }>(base, "/api/public/v2/reports/dashboard-link", {
    key: ws.api_key,
    workspace: ws.uuid,
    method: "POST",
    body: { location_uuid: loc.uuid, from: FROM, to },
  });
  const days = Array.from({ length: DAYS }, (_, i) => first + i);
  const common = `'${loc.uuid}'`;
  const revenue = days.map((day, i) => {
    const services = 42_000 + ((i * 7919) % 31_000);
    const goods = (i * 2_711) % 9_000;
    const discounts = (i % 4) * 1_500;
    return `(${common}, 'day', ${day}, '', '${ws.uuid}', ${10 + (i % 5)}, ${services}, ${goods}, 0, 0, 0, 0, ${discounts}, 1)`;
  });
  queryD1(
    persist,
    ws.uuid,
    `INSERT INTO report_revenue_days (location_id, dim, day, key, workspace_id, bookings_completed, services_amount, goods_amount, vouchers_sold, packages_sold, fees, refunds, discounts, changes) VALUES ${revenue.join(", ")}`,
  );
  const calendar = days.flatMap((day, i) =>
    staffers.map((staffer, s) => {
      const bookedMinutes = ((i * 97 + s * 131) % 10) * 54;
      return `(${common}, ${day}, '${staffer}', '${ws.uuid}', ${bookedMinutes * 60_000}, 0, 1)`;
    }),
  );
  queryD1(
    persist,
    ws.uuid,
    `INSERT INTO report_calendar_days (location_id, day, staffer_id, workspace_id, booked_ms, blocked_ms, changes) VALUES ${calendar.join(", ")}`,
  );
  const bookings = days.map(
    (day, i) =>
      `(${common}, 'service', ${day}, '', '${ws.uuid}', ${12 + (i % 6)}, ${i % 3 === 0 ? 1 : 0}, ${i % 5 === 0 ? 1 : 0}, ${i % 3 === 0 ? 2_500 : 0}, 1)`,
  );
  queryD1(
    persist,
    ws.uuid,
    `INSERT INTO report_booking_days (location_id, dim, day, key, workspace_id, bookings, didnt_come, late_cancels, fees, changes) VALUES ${bookings.join(", ")}`,
  );
  return { url: link.url, staffers };
}

/** Non-transparent pixels on a canvas: what Chart.js drew. */
const drawnPixels = (page: Page, id: string) =>
  page.evaluate((canvasId) => {
    const canvas = document.getElementById(canvasId);
    if (!(canvas instanceof HTMLCanvasElement) || canvas.width === 0 || canvas.height === 0)
      return 0;
    const data = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data;
    let drawn = 0;
    for (let i = 3; i < (data?.length ?? 0); i += 4) if ((data?.[i] ?? 0) > 0) drawn++;
    return drawn;
  }, id);

let browser: Browser;
let seeded: Seeded;
beforeAll(async () => {
  [browser, seeded] = await Promise.all([launch(), seed()]);
});
afterAll(async () => {
  await browser?.close();
});

const LAYOUTS: [string, BrowserContextOptions][] = [
  [
    "desktop",
    { viewport: { width: 1280, height: 800 }, locale: "de-DE", timezoneId: "Europe/Berlin" },
  ],
  ["phone", PHONE],
];

describe("the reports dashboard", () => {
  for (const [name, options] of LAYOUTS) {
    it(`draws revenue, the utilization heat map and no-shows in German on a ${name}, all from its own host`, async () => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const requests: string[] = [];
      page.on("request", (request) => requests.push(request.url()));
      const problems: string[] = [];
      page.on("pageerror", (e) => problems.push(e.message));
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });

      const answer = await page.goto(seeded.url);
      expect(answer?.status()).toBe(200);
      await expect
        .poll(() => drawnPixels(page, "utilization-chart"), { timeout: 15_000 })
        .toBeGreaterThan(0);
      for (const id of ["revenue-chart", "utilization-chart", "no-shows-chart"])
        expect(await drawnPixels(page, id), id).toBeGreaterThan(2_000);

      expect(await page.getAttribute("html", "lang")).toBe("de");
      for (const heading of [
        "Umsatz pro Tag",
        "Auslastung nach Mitarbeiter und Tag",
        "Nichterscheinen und späte Absagen",
      ])
        await page.getByRole("heading", { name: heading }).waitFor();
      const text = await page.locator("main").innerText();
      expect(text).toContain("Zeitraum: 05.10.2026 – 18.10.2026");
      expect(text).toMatch(/\d{1,3}(\.\d{3})*,\d{2}\s€/);
      expect(text).toContain("Nichterscheinen-Quote");

      // On a phone nothing runs off the side.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);

      await shot(page, `dashboard-${name}`);
      await sweep(page, `dashboard-${name}`);

      const host = new URL(base).origin;
      expect(requests.filter((url) => new URL(url).origin !== host)).toEqual([]);
      expect(requests.some((url) => url.endsWith("/dashboard/dashboard.js"))).toBe(true);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it("shows a plain page, no chart, for a changed link", async () => {
    const context = await browser.newContext(LAYOUTS[0]?.[1]);
    const page = await context.newPage();
    const token = new URL(seeded.url).searchParams.get("token") ?? "";
    const changed = `${token.slice(0, 50)}${token[50] === "A" ? "B" : "A"}${token.slice(51)}`;
    const answer = await page.goto(`${base}/dashboard?token=${changed}`);
    expect(answer?.status()).toBe(404);
    expect(await page.locator("canvas").count()).toBe(0);
    await context.close();
  });
});
