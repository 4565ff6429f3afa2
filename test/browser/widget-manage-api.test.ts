import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import type { Locale } from "../../widget/i18n/locale";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { call } from "./salon";
import { dayAfter, instant } from "./widget-flow";

/**
 * The manage page against the real manage API on `wrangler dev`: a booking made with the
 * secret key, its link taken from the confirmation message the API wrote (the way a
 * customer gets it), then seen, moved and canceled in the browser, each change checked
 * through the API.
 */

const salon = inject("salon");
const ZONE = "Europe/Berlin";
const staff = { key: salon.secretKey, workspace: salon.workspace };
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

interface Booking {
  uuid: string;
  start_time: string;
  is_canceled: boolean;
  canceled_by: string | null;
}

const getBooking = (uuid: string) =>
  call<Booking>(salon.base, `/api/public/v2/bookings/${uuid}`, staff);

/** Booked with the customer's browser zone as the booking's `timezone`, as the widget does. */
async function book(start: string, first: string, clientZone: string): Promise<Booking> {
  return call<Booking>(salon.base, "/api/public/v2/bookings", {
    ...staff,
    method: "POST",
    body: {
      timezone: clientZone,
      location_uuid: salon.location,
      service_uuid: salon.services.haircut,
      staffer_uuid: salon.staffers.mia,
      reserved_on: start,
      customer_first_name: first,
      customer_phone: "+4930123456",
      customer_email: `${first.toLowerCase()}@example.com`,
    },
  });
}

/** The manage link in the booking's confirmation e-mail, as the customer receives it. */
async function linkInConfirmation(bookingUuid: string): Promise<string> {
  const q = new URLSearchParams({ booking_uuid: bookingUuid, kind: "booking-confirmation" });
  const list = await call<{ data: { body: string }[] }>(
    salon.base,
    `/api/public/v2/messages?${q}`,
    staff,
  );
  const found = list.data.map((m) => /\S+\/widget\/manage\?token=[\w-]+/.exec(m.body)?.[0]);
  const url = found.find(Boolean);
  if (!url) throw new Error(`No manage link in ${JSON.stringify(list.data)}`);
  expect(url.startsWith(`${salon.base}/widget/manage?token=`)).toBe(true);
  return url;
}

/** The page's "when" as a customer of that locale reads it, on the salon's clock. */
const when = (start: string, format: string) =>
  new Date(start).toLocaleString(format, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: ZONE,
  });
const clock = (start: string, format: string) =>
  new Date(start).toLocaleTimeString(format, {
    hour: "numeric",
    minute: "2-digit",
    timeZone: ZONE,
  });

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

interface Case {
  locale: Locale;
  /** The tag Intl writes dates with on that page. */
  format: string;
  options: BrowserContextOptions;
  /** Appended to the link (`&lang=…`), as a salon might. */
  lang?: string;
  days: number;
  customer: string;
}

const CASES: Case[] = [
  { locale: "en", format: "en-US", options: DESKTOP, days: 45, customer: "Ella" },
  { locale: "de", format: "de-DE", options: PHONE, days: 46, customer: "Greta" },
  { locale: "fr", format: "fr", options: DESKTOP, lang: "fr", days: 47, customer: "Flore" },
];

describe("the manage page against the real manage API", () => {
  for (const c of CASES)
    it(`${c.locale}: shows the booking, moves it to a free time, then cancels it`, async () => {
      const t = CATALOGUES[c.locale];
      const day = dayAfter(ZONE, c.days);
      const start = iso(instant(day, "10:00", ZONE));
      const booking = await book(start, c.customer, c.options.timezoneId ?? "UTC");
      const link = await linkInConfirmation(booking.uuid);
      const token = new URL(link).searchParams.get("token");

      const context = await browser.newContext({ ...c.options, colorScheme: "light" });
      const page = await context.newPage();
      const keys: (string | undefined)[] = [];
      page.on("request", (r) => {
        if (r.url().includes("/api/")) keys.push(r.headers().authorization);
      });
      await page.goto(c.lang ? `${link}&lang=${c.lang}` : link);
      await page.getByRole("heading", { name: t["manage.heading"] }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(c.locale);
      // A salon without a brand goes by its location's name; with no address nor phone given,
      // the page has no contact to show.
      await page.getByRole("heading", { level: 1, name: "Widget Salon Mitte" }).waitFor();
      expect(await page.getByRole("heading", { name: t["face.help"] }).count()).toBe(0);

      // The salon's zone named, whatever the browser's.
      await page.getByText(t["manage.salon_zone"].replace("{zone}", ZONE)).waitFor();
      // What was booked, with whom (first name only) and when, on the salon's clock.
      const facts = page.locator("dl.facts");
      await expect.poll(() => facts.innerText()).toContain("Haircut");
      expect(await facts.innerText()).toContain("Mia");
      expect(await facts.innerText()).not.toContain("Wagner");
      expect(await facts.locator("dd[data-start]").innerText()).toBe(when(start, c.format));
      await shot(page, `manage-api-${c.locale}-1-view`);

      // Move: the booking's own day, its free times on the salon's clock; 14:00 is free.
      await page.getByRole("button", { name: t["manage.move"] }).click();
      await page.getByRole("heading", { name: t["manage.move_heading"] }).waitFor();
      const two = iso(instant(day, "14:00", ZONE));
      const times = page.locator(`ul[aria-label="${t["slot.free_times"]}"][data-date="${day}"]`);
      await times.getByRole("button", { name: clock(two, c.format), exact: true }).click();
      // Its own time is not offered as a move.
      expect(
        await times.getByRole("button", { name: clock(start, c.format), exact: true }).count(),
      ).toBe(0);
      await shot(page, `manage-api-${c.locale}-2-move-pick`);
      await page
        .getByRole("button", { name: t["manage.move_to"].replace("{when}", when(two, c.format)) })
        .click();
      await page
        .getByRole("alert")
        .filter({ hasText: t["manage.moved"].replace("{when}", when(two, c.format)) })
        .waitFor();
      expect(await page.locator("dd[data-start]").innerText()).toBe(when(two, c.format));
      await shot(page, `manage-api-${c.locale}-3-moved`);
      expect((await getBooking(booking.uuid)).start_time).toBe(two);
      // The link in the confirmation still opens the booking, at its new time: the customer's
      // own move does not make the first e-mail's link "invalid or expired".
      expect(new URL(page.url()).searchParams.get("token")).toBe(token);
      await page.goto(c.lang ? `${link}&lang=${c.lang}` : link);
      await expect.poll(() => page.locator("dd[data-start]").innerText()).toBe(when(two, c.format));

      // Cancel, after the question.
      await page.getByRole("button", { name: t["manage.cancel"] }).click();
      await page.getByRole("button", { name: t["manage.cancel_yes"] }).click();
      await page.getByRole("alert").filter({ hasText: t["manage.canceled"] }).waitFor();
      await shot(page, `manage-api-${c.locale}-4-canceled`);
      const canceled = await getBooking(booking.uuid);
      expect(canceled.is_canceled).toBe(true);
      expect(canceled.canceled_by).toBe("customer");
      expect(await page.getByRole("button", { name: t["manage.move"] }).count()).toBe(0);

      // The fresh link opens the booking as it now is, also after a reload.
      await page.reload();
      await page.getByText(t["manage.is_canceled"]).waitFor();
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => k === undefined)).toBe(true);
      await context.close();
    });
});
