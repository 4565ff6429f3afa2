import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Catalogue } from "../../widget/i18n/messages";
import { CATALOGUES } from "../../widget/i18n/messages";
import type { Locale } from "../../widget/i18n/locale";
import { sweep } from "./a11y-checks";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { SALON, serveLogo } from "./manage-stub";
import { call, type Salon, widgetKey } from "./salon";

/**
 * WCAG 2.2 AA on every page and state, in every language, on a phone and a desktop: the
 * booking widget (services, staffer, month and times, details with its errors, the pay step,
 * the confirmation), the manage page (the booking, the move step, canceled; the real API,
 * reached by the confirmation's link) and the offer page (open, booked and reopened, ended;
 * its API stood in for: an offer takes the waitlist desk's alarm to make). Each state gets
 * axe (the WCAG 2.0–2.2 A and AA tags: no violation), a target-size check of our own (axe's
 * rule skips most targets), a check that no focusable element is covered where it shows, and
 * a screenshot. Then one booking by keyboard alone, to the day's last time.
 */

const shared = inject("salon");
const LOCALES: Locale[] = ["en", "de", "fr", "es"];
/**
 * The two walk at once (each its own context, so the sweep costs about one walk's time); the
 * phone books a day's last time and the desktop its first, so they never want the same seat.
 */
const VIEWPORTS: { viewport: string; options: BrowserContextOptions; pick: "first" | "last" }[] = [
  // The phone at scale 1: the sweep's screenshots need no retina pixels.
  {
    viewport: "phone",
    options: { ...PHONE, deviceScaleFactor: 1, timezoneId: "Europe/Berlin" },
    pick: "last",
  },
  { viewport: "desktop", options: { ...DESKTOP, timezoneId: "Europe/Berlin" }, pick: "first" },
];

let browser: Browser;
let salon: Pick<Salon, "base" | "workspace" | "location" | "secretKey">;
/** A service with a deposit (the pay step). */
const PAID = "Colour & cut";
/** A group service (its party-size control shows once it is ticked). */
const GROUP = "Workshop";

/**
 * A salon of its own, as an operator sets one up: a brand, an address and a phone (the pages
 * show all of the face), two staffers working 09:00–18:00 (a day's times as a salon has them),
 * a haircut, a service with a deposit and a group service.
 */
async function sweepSalon(base: string) {
  const admin = <T>(path: string, body: unknown, method = "POST") =>
    call<T>(base, `/api/admin/v1${path}`, { method, body });
  const ws = await admin<{ uuid: string; api_key: string }>("/workspaces", {
    name: "Sweep Salon",
    country: "DE",
    currency: "EUR",
    locale: "en-GB",
    timezone: "Europe/Berlin",
  });
  await admin(
    `/workspaces/${ws.uuid}`,
    {
      brand: { name: SALON.name, logo_url: SALON.logo_url, accent_color: SALON.accent_color },
    },
    "PATCH",
  );
  const loc = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: SALON.location_name,
    timezone: "Europe/Berlin",
    slot_step: 15,
    address: SALON.address,
    phone: SALON.phone,
  });
  const schedule = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "09:00",
    end: "18:00",
  }));
  const staffers = [];
  for (const [first_name, last_name] of [
    ["Mia", "Wagner"],
    ["Jonas", "Becker"],
  ])
    staffers.push(
      await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/staffers`, {
        first_name,
        last_name,
        location_uuids: [loc.uuid],
        schedule,
      }),
    );
  const service = (body: Record<string, unknown>) =>
    call(base, "/api/public/v2/services", {
      key: ws.api_key,
      workspace: ws.uuid,
      method: "POST",
      body,
    });
  await service({ name: "Haircut", duration: 45, price: 3500 });
  await service({
    name: PAID,
    duration: 90,
    price: 8000,
    staffer_uuids: [staffers[0]?.uuid],
    payment_policy: { mode: "deposit", deposit: { amount: 1200 } },
  });
  await service({ name: GROUP, duration: 60, price: 2000, capacity: 4 });
  return { base, workspace: ws.uuid, location: loc.uuid, secretKey: ws.api_key };
}

beforeAll(async () => {
  browser = await launch();
  salon = await sweepSalon(shared.base);
});
afterAll(async () => {
  await browser?.close();
});

const heading = (page: Page, name: string) => page.getByRole("heading", { name }).waitFor();

async function widget(
  page: Page,
  c: Catalogue,
  lang: Locale,
  name: (s: string) => string,
  pick: "first" | "last",
) {
  const key = await widgetKey(salon.base, salon.workspace);
  const address = `${salon.base}/widget?workspace=${salon.workspace}&location=${salon.location}&key=${key}&lang=${lang}`;
  await page.goto(address);
  await heading(page, c["services.heading"]);
  // The group service ticked: its party size shows.
  const group = page.getByRole("checkbox", { name: new RegExp(GROUP) });
  await group.check();
  await page.getByRole("combobox").first().waitFor();
  await sweep(page, name("widget-1-services"));
  await group.uncheck();

  // A paid service to the pay step.
  await page.getByRole("checkbox", { name: new RegExp(PAID) }).check();
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await heading(page, c["staffer.heading"]);
  await sweep(page, name("widget-2-staffer"));
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await heading(page, c["slot.heading"]);
  const times = page.locator("ul.slots[data-date] button");
  await times.first().waitFor();
  await sweep(page, name("widget-3-month-times"));
  await times[pick]().click();
  await heading(page, c["details.heading"]);
  const field = (key: keyof Catalogue) => page.getByLabel(new RegExp(`^${c[key]}`));
  // Sent empty: the errors show.
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await page.locator('[aria-invalid="true"]').first().waitFor();
  await sweep(page, name("widget-4-details-errors"));
  await field("details.first_name").fill("Ada");
  await field("details.last_name").fill("Lovelace");
  await field("details.phone").fill("+49 151 23456789");
  await field("details.email").fill("ada@example.com");
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await heading(page, c["pay.heading"]);
  await sweep(page, name("widget-5-pay"));

  // A plain haircut to the confirmation.
  await page.goto(address);
  await heading(page, c["services.heading"]);
  await page.getByRole("checkbox", { name: /Haircut/ }).check();
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await heading(page, c["staffer.heading"]);
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await times.first().waitFor();
  await times[pick]().click();
  await heading(page, c["details.heading"]);
  await field("details.first_name").fill("Ada");
  await field("details.last_name").fill("Lovelace");
  await field("details.phone").fill("+49 151 23456789");
  await field("details.email").fill("ada@example.com");
  await page.getByRole("button", { name: c["details.book"] }).click();
  await heading(page, c["done.heading"]);
  await sweep(page, name("widget-6-confirmation"));
  const manage = await page.getByRole("link", { name: c["done.manage"] }).getAttribute("href");
  if (!manage) throw new Error("the confirmation gave no manage link");
  return manage;
}

async function managePage(page: Page, c: Catalogue, link: string, name: (s: string) => string) {
  await page.goto(link);
  await heading(page, c["manage.heading"]);
  await page.getByRole("heading", { level: 1, name: SALON.name }).waitFor();
  await sweep(page, name("manage-1-booking"));
  await page.getByRole("button", { name: c["manage.move"] }).click();
  await heading(page, c["manage.move_heading"]);
  await page.locator("ul.slots[data-date] button").first().waitFor();
  await sweep(page, name("manage-2-move"));
  await page.getByRole("button", { name: c["common.back"] }).click();
  await page.getByRole("button", { name: c["manage.cancel"] }).click();
  await page.getByRole("button", { name: c["manage.cancel_yes"] }).click();
  await page.getByRole("alert").filter({ hasText: c["manage.canceled"] }).waitFor();
  await sweep(page, name("manage-3-canceled"));
}

/** The offer view in its real shape (src/waitlist/http/waitlist-offers/schema.ts). */
function offerView(status: "open" | "booked") {
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(14, 0, 0, 0);
  const end = new Date(start.getTime() + 45 * 60_000);
  const iso = (d: Date) => d.toISOString().replace(".000Z", "Z");
  return {
    entry_uuid: "0b7f3a52-0000-4000-8000-0000000000e1",
    customer_first_name: "Ada",
    locale: "en",
    location_uuid: "0b7f3a52-0000-4000-8000-0000000000a1",
    location_name: SALON.location_name,
    timezone: "Europe/Berlin",
    start: iso(start),
    expires_at: iso(new Date(Date.now() + 30 * 60_000)),
    services: [
      {
        service_uuid: "0b7f3a52-0000-4000-8000-0000000000c1",
        name: "Haircut",
        staffer_uuid: "0b7f3a52-0000-4000-8000-0000000000d1",
        staffer_first_name: "Mia",
        starts_at: iso(start),
        ends_at: iso(end),
      },
    ],
    status,
    booking:
      status === "booked"
        ? {
            uuid: "0b7f3a52-0000-4000-8000-0000000000b1",
            start_time: iso(start),
            end_time: iso(end),
            manage_url: `${salon.base}/widget/manage?token=t`,
          }
        : null,
    salon: SALON,
  };
}

async function offerPage(page: Page, c: Catalogue, lang: Locale, name: (s: string) => string) {
  await page.route("**/api/public/v2/waitlist-offers/**", (route) => {
    const token = new URL(route.request().url()).pathname.split("/").pop();
    if (token === "gone")
      return route.fulfill({
        // An ended offer's answer, as the API gives it (platform/errors.ts: 409).
        status: 409,
        contentType: "application/json",
        body: JSON.stringify({ message: "Ended.", code: "reservation_expired", errors: {} }),
      });
    return route.fulfill({
      status: 200,
      contentType: "application/json",
      body: JSON.stringify(offerView(token === "booked" ? "booked" : "open")),
    });
  });
  const open = (token: string) =>
    page.goto(`${salon.base}/widget/offer?token=${token}&lang=${lang}`);
  await open("open");
  await heading(page, c["offer.heading"]);
  await page.getByRole("heading", { level: 1, name: SALON.name }).waitFor();
  await sweep(page, name("offer-1-open"));
  await open("booked");
  await heading(page, c["offer.yours_heading"]);
  await sweep(page, name("offer-2-booked-reopened"));
  await open("gone");
  await heading(page, c["offer.ended_heading"]);
  await sweep(page, name("offer-3-ended"));
  await page.unroute("**/api/public/v2/waitlist-offers/**");
}

/** One viewport's walk: every language, every state of the three pages. */
async function walk({ viewport, options, pick }: (typeof VIEWPORTS)[number]) {
  const context: BrowserContext = await browser.newContext({ ...options, colorScheme: "light" });
  try {
    const page = await context.newPage();
    await serveLogo(page);
    for (const lang of LOCALES) {
      const c = CATALOGUES[lang];
      const name = (state: string) => `${viewport}-${lang}-${state}`;
      const manage = new URL(await widget(page, c, lang, name, pick));
      manage.searchParams.set("lang", lang);
      await managePage(page, c, manage.href, name);
      await offerPage(page, c, lang, name);
    }
  } finally {
    await context.close();
  }
}

describe("WCAG 2.2 AA on every page and state", () => {
  it("on a phone and a desktop, in en, de, fr and es: the widget, the manage page, the offer page", async () => {
    const walks = await Promise.allSettled(VIEWPORTS.map(walk));
    const failed = walks.flatMap((w) => (w.status === "rejected" ? [w.reason as unknown] : []));
    if (failed[0]) throw failed[0];
  });
});

describe("the keyboard alone", () => {
  it("books from the first Tab to the confirmation, picking the day's last time, with no click", async () => {
    const c = CATALOGUES.en;
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    await serveLogo(page);
    const key = await widgetKey(salon.base, salon.workspace);
    await page.goto(
      `${salon.base}/widget?workspace=${salon.workspace}&location=${salon.location}&key=${key}`,
    );
    await heading(page, c["services.heading"]);
    let tabs = 0;
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement & {
          labels?: NodeListOf<HTMLLabelElement>;
        };
        return (
          el.getAttribute("aria-label") ??
          el.labels?.[0]?.textContent ??
          el.textContent ??
          ""
        ).trim();
      });
    const tabTo = async (name: RegExp) => {
      for (let i = 0; i < 40; i++) {
        tabs += 1;
        await page.keyboard.press("Tab");
        if (name.test(await focused())) return;
      }
      throw new Error(`nothing matching ${name} reached with Tab`);
    };
    const exactly = (text: string) => new RegExp(`^${text}$`);

    await tabTo(/Haircut/);
    await page.keyboard.press("Space");
    await tabTo(exactly(c["common.continue"]));
    await page.keyboard.press("Enter");
    await heading(page, c["staffer.heading"]);
    await tabTo(exactly(c["common.continue"]));
    await page.keyboard.press("Enter");
    await heading(page, c["slot.heading"]);
    const times = page.locator("ul.slots[data-date] button");
    await times.first().waitFor();
    const inTimes = () =>
      page.evaluate(() => document.activeElement?.closest("ul.slots[data-date]") !== null);
    for (let i = 0; i < 40 && !(await inTimes()); i++) {
      tabs += 1;
      await page.keyboard.press("Tab");
    }
    expect(await inTimes()).toBe(true);
    await page.keyboard.press("End");
    const last = await times.last().innerText();
    expect(await focused()).toBe(last);
    // From the first Tab to the day's last time: the times are one Tab stop, not one each.
    expect(tabs).toBeLessThan(20);
    await page.keyboard.press("Enter");

    await heading(page, c["details.heading"]);
    await tabTo(new RegExp(`^${c["details.first_name"]}`));
    await page.keyboard.type("Ada");
    await tabTo(new RegExp(`^${c["details.last_name"]}`));
    await page.keyboard.type("Lovelace");
    await tabTo(new RegExp(`^${c["details.phone"]}`));
    await page.keyboard.type("+49 151 23456789");
    await tabTo(new RegExp(`^${c["details.email"]}`));
    await page.keyboard.type("ada@example.com");
    await tabTo(exactly(c["details.book"]));
    await page.keyboard.press("Enter");
    await heading(page, c["done.heading"]);
    expect(await page.locator("main").innerText()).toContain(last);
    await shot(page, "a11y-keyboard-confirmation");
    await context.close();
  });
});
