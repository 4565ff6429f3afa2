import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { queryD1 } from "./d1";
import { call, request, widgetKey } from "./salon";
import {
  dayAfter,
  fillDetails,
  freeTimesOn,
  instant,
  nextInMonth,
  pickDay,
  tabTo,
  widgetUrl,
} from "./widget-flow";

const salon = inject("salon");
const persist = inject("persist");

interface Booking {
  uuid: string;
  start_time: string;
  customer_uuid: string;
  public_notes: string;
  is_canceled: boolean;
  links: { type: string; link: string }[];
  ordered_services: { name: string; reserved_on: string; reserved_until: string }[];
}
interface Customer {
  first_name: string;
  last_name: string | null;
  phone: string;
  email: string | null;
}

const staff = { key: salon.secretKey, workspace: salon.workspace };
const getBooking = (uuid: string) =>
  call<Booking>(salon.base, `/api/public/v2/bookings/${uuid}`, staff);
const getCustomer = (uuid: string) =>
  call<Customer>(salon.base, `/api/public/v2/customers/${uuid}`, staff);

async function bookedUuid(page: Page, booked = CATALOGUES.en["done.heading"]) {
  await page
    .getByRole("heading", { name: booked })
    .waitFor()
    .catch(async (e: unknown) => {
      throw new Error(`Not booked; the widget says: ${await page.locator("main").innerText()}`, {
        cause: e,
      });
    });
  const uuid = await page.locator("[data-booking]").first().getAttribute("data-booking");
  expect(uuid).toBeTruthy();
  return uuid ?? "";
}

/** The uuids of the reservations the widget made, in order. */
function watchHolds(page: Page): string[] {
  const uuids: string[] = [];
  page.on("response", async (res) => {
    if (res.request().method() === "POST" && res.url().endsWith("/reservations") && res.ok()) {
      uuids.push(((await res.json()) as { uuid: string }).uuid);
    }
  });
  return uuids;
}

let browser: Browser;
let key: string;
beforeAll(async () => {
  browser = await launch();
});
beforeEach(async () => {
  key = await widgetKey(salon.base, salon.workspace);
});
afterAll(async () => {
  await browser?.close();
});

describe("booking widget", () => {
  it("books end to end in the customer's time zone; staff find the booking, its customer and the browser's zone", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    const holds = watchHolds(page);
    const zone = "America/New_York";
    await page.goto(widgetUrl(salon, key));

    await page.getByRole("heading", { name: "Choose your services" }).waitFor();
    await shot(page, "light-1-services");
    expect(await page.getByRole("checkbox").count()).toBe(2);
    expect(await page.getByText("Staff-only treatment").count()).toBe(0);
    await page.getByRole("checkbox", { name: /Haircut/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.getByRole("heading", { name: "Who should it be?" }).waitFor();
    await page.getByRole("radio", { name: "Mia Wagner" }).check();
    await shot(page, "light-2-staffer");
    await page.getByRole("button", { name: "Continue" }).click();

    const day = dayAfter(zone, 1);
    await pickDay(page, day);
    // 10:00 on the customer's clock is 16:00 at the salon (Europe/Berlin).
    const ten = freeTimesOn(page, day).getByRole("button", { name: "10:00 AM", exact: true });
    await ten.waitFor();
    await shot(page, "light-3-slots");
    await ten.click();

    await page.getByRole("heading", { name: "Your details" }).waitFor();
    // The time is held while the customer types.
    await page
      .getByRole("timer")
      .filter({ hasText: /\d:\d\d/ })
      .waitFor();
    await expect.poll(() => holds.length).toBe(1);
    await fillDetails(page, {
      first: "Ada",
      last: "Lovelace",
      phone: "+49 151 23456789",
      email: "ada@example.com",
      comment: "Window seat, please",
    });
    await shot(page, "light-4-details");
    await page.getByRole("button", { name: "Book" }).click();

    const uuid = await bookedUuid(page);
    await shot(page, "light-5-confirmation");

    const booking = await getBooking(uuid);
    expect(Date.parse(booking.start_time)).toBe(instant(day, "10:00", zone));
    // The booking used the hold up.
    expect(
      (await request(salon.base, `/api/public/v2/reservations/${holds[0]}`, staff)).status,
    ).toBe(404);
    expect(booking.public_notes).toBe("Window seat, please");
    expect(await getCustomer(booking.customer_uuid)).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "+4915123456789",
      email: "ada@example.com",
    });
    // The widget's calendar link is the booking's ical link, and it serves the event.
    const ical = booking.links.find((l) => l.type === "ical")?.link ?? "";
    expect(await page.getByRole("link", { name: "Add to my calendar" }).getAttribute("href")).toBe(
      ical,
    );
    const feed = await fetch(ical);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain("BEGIN:VCALENDAR");
    // No response shows the browser fields; they are stored with the booking.
    const [stored] = queryD1<{ customer_browser_tz: string; customer_browser_language: string }>(
      persist,
      salon.workspace,
      `SELECT customer_browser_tz, customer_browser_language FROM bookings WHERE id = '${uuid}'`,
    );
    expect(stored).toEqual({ customer_browser_tz: zone, customer_browser_language: "en-US" });
    await context.close();
  });

  it("a time taken by another client meanwhile: the widget offers the alternatives; a hold lost while typing keeps what was typed", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    const holds = watchHolds(page);
    const zone = "America/New_York";
    const day = dayAfter(zone, 2);
    await page.goto(widgetUrl(salon, key));
    await page.getByRole("checkbox", { name: /Haircut/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: "Mia Wagner" }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await pickDay(page, day);
    const eleven = freeTimesOn(page, day).getByRole("button", { name: "11:00 AM", exact: true });
    await eleven.waitFor();

    // Someone else books Mia at 11:00 through the API after the widget listed the time.
    const taken = instant(day, "11:00", zone);
    await call(salon.base, "/api/public/v2/bookings", {
      ...staff,
      method: "POST",
      body: {
        location_uuid: salon.location,
        service_uuid: salon.services.haircut,
        staffer_uuid: salon.staffers.mia,
        reserved_on: new Date(taken).toISOString().replace(".000Z", "Z"),
        customer_phone: "+4930123456",
        customer_first_name: "Other",
      },
    });
    await eleven.click();

    // The hold is refused: the widget says so and lists the free times the API offers.
    await page.getByRole("alert").filter({ hasText: "just taken" }).waitFor();
    const alternatives = page.getByRole("list", { name: "Other free times" });
    await alternatives.waitFor();
    await freeTimesOn(page, day).waitFor();
    await shot(page, "light-6-conflict");
    expect(
      await freeTimesOn(page, day).getByRole("button", { name: "11:00 AM", exact: true }).count(),
    ).toBe(0);
    expect(await alternatives.getByRole("button").count()).toBeGreaterThan(0);
    await alternatives.getByRole("button").first().click();

    await page.getByRole("heading", { name: "Your details" }).waitFor();
    await page.getByRole("timer").waitFor();
    const customer = {
      first: "Grace",
      last: "Hopper",
      phone: "+49 151 99887766",
      email: "grace@example.com",
    };
    await fillDetails(page, customer);

    // The hold goes away while the customer types (as when it expires): booking it is refused.
    const lost = holds.at(-1) ?? "";
    await call(salon.base, `/api/public/v2/reservations/${lost}`, { ...staff, method: "DELETE" });
    await page.getByRole("button", { name: "Book" }).click();
    await page.getByRole("alert").filter({ hasText: "ran out" }).waitFor();
    await shot(page, "light-7-hold-lost");

    // Back on the day the customer had chosen, its times asked for again.
    await freeTimesOn(page, day).getByRole("button", { name: "11:45 AM", exact: true }).click();
    await page.getByRole("heading", { name: "Your details" }).waitFor();
    // Nothing typed was lost.
    expect(await page.getByLabel(/^First name/).inputValue()).toBe(customer.first);
    expect(await page.getByLabel(/^Phone/).inputValue()).toBe(customer.phone);
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe(customer.email);
    await page.getByRole("button", { name: "Book" }).click();

    const booking = await getBooking(await bookedUuid(page));
    expect(Date.parse(booking.start_time)).toBe(instant(day, "11:45", zone));
    expect((await getCustomer(booking.customer_uuid)).first_name).toBe("Grace");
    // The hold it booked is used up.
    const used = holds.at(-1) ?? "";
    expect(used).not.toBe(lost);
    expect((await request(salon.base, `/api/public/v2/reservations/${used}`, staff)).status).toBe(
      404,
    );
    await context.close();
  });

  it("works by keyboard alone on a phone (a German one: the widget speaks German): slot choice, a rejected phone number, a dropped connection, then the booking", async () => {
    const de = CATALOGUES.de;
    const exactly = (text: string) => new RegExp(`^${text}$`);
    const context = await browser.newContext({ ...PHONE, colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(widgetUrl(salon, key));
    await page.getByRole("heading", { name: de["services.heading"] }).waitFor();
    // Mobile first: nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(
      true,
    );

    await tabTo(page, /Beard trim/);
    await page.keyboard.press("Space");
    await tabTo(page, exactly(de["common.continue"]));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: de["staffer.heading"] }).waitFor();
    await tabTo(page, exactly(de["common.continue"]));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: de["slot.heading"] }).waitFor();
    // The month grid is one Tab stop, on the day it opened on; the arrow keys move to the next.
    // Read once the month's answer is in (while it loads, today stands selected, free or not).
    const opened = await page
      .locator('td[aria-selected="true"] button.day-free[data-date]')
      .getAttribute("data-date");
    await tabTo(page, /, freie Zeiten$/);
    const focusedDay = () =>
      page.evaluate(() => document.activeElement?.getAttribute("data-date") ?? "");
    await page.keyboard.press("ArrowRight");
    // The focus moves on the grid's next render.
    await page.waitForFunction(
      (next) => document.activeElement?.getAttribute("data-date") === next,
      nextInMonth(opened ?? ""),
    );
    // That day may have no free time left (the other tests book this salon, and a day past the
    // month's end keeps the focus where it is): then back to the day the month opened on.
    const full = await page.evaluate(
      () => document.activeElement?.getAttribute("aria-disabled") === "true",
    );
    if (full) {
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(
        (back) => document.activeElement?.getAttribute("data-date") === back,
        opened ?? "",
      );
    }
    await page.keyboard.press("Enter");
    const day = await focusedDay();
    expect(day).toBe(full ? opened : nextInMonth(opened ?? ""));
    const times = page.locator(`ul[aria-label="${de["slot.free_times"]}"][data-date="${day}"]`);
    await times.getByRole("button").first().waitFor();
    await shot(page, "mobile-slots");
    // The day's times are one Tab stop too: End reaches the last.
    await tabTo(page, /^\d{1,2}:\d\d$/);
    await page.keyboard.press("End");
    const label = await page.evaluate(() => document.activeElement?.textContent ?? "");
    expect(label).toBe(await times.getByRole("button").last().innerText());
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: de["details.heading"] }).waitFor();

    await tabTo(page, /^Vorname/);
    await page.keyboard.type("Katherine");
    await tabTo(page, /^Telefon/);
    await page.keyboard.type("12");
    await tabTo(page, exactly(de["details.book"]));
    await page.keyboard.press("Enter");
    await page.getByText(de["details.phone_invalid"]).waitFor();
    expect(await page.getByLabel(/^Telefon/).getAttribute("aria-invalid")).toBe("true");
    // The focus went to the field at fault: fix it in place (a German number typed nationally).
    const phone = page.getByLabel(/^Telefon/);
    await expect
      .poll(() => phone.evaluate((el) => el === document.activeElement), { timeout: 5_000 })
      .toBe(true);
    await page.keyboard.press("Control+A");
    await page.keyboard.type("0151 11223344");
    expect(await phone.inputValue()).toBe("0151 11223344");

    // The first attempt never reaches the server.
    let dropped = false;
    await page.route("**/api/public/v2/bookings", (route) => {
      if (dropped) return route.continue();
      dropped = true;
      return route.abort("internetdisconnected");
    });
    await tabTo(page, exactly(de["details.book"]));
    await page.keyboard.press("Enter");
    await page.getByRole("alert").filter({ hasText: de["error.network"] }).waitFor();
    expect(await page.getByLabel(/^Vorname/).inputValue()).toBe("Katherine");
    await shot(page, "mobile-network-error");
    await page.getByRole("button", { name: de["common.try_again"] }).focus();
    await page.keyboard.press("Enter");

    const booking = await getBooking(await bookedUuid(page, de["done.heading"]));
    await shot(page, "mobile-confirmation");
    const local = new Date(booking.start_time).toLocaleTimeString("de-DE", {
      timeZone: "Europe/Berlin",
      hour: "2-digit",
      minute: "2-digit",
    });
    expect(local).toBe(label);
    expect((await getCustomer(booking.customer_uuid)).phone).toBe("+4915111223344");
    // The booking keeps the browser's language for the customer's messages.
    const [stored] = queryD1<{ customer_browser_language: string }>(
      persist,
      salon.workspace,
      `SELECT customer_browser_language FROM bookings WHERE id = '${booking.uuid}'`,
    );
    expect(stored?.customer_browser_language).toBe("de-DE");
    await context.close();
  });

  it("is readable in dark mode, and books two services as one cart", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(widgetUrl(salon, key));
    await page.getByRole("heading", { name: "Choose your services" }).waitFor();
    const colours = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return { bg: s.backgroundColor, fg: s.color };
    });
    expect(colours).toEqual({ bg: "rgb(22, 22, 26)", fg: "rgb(236, 236, 241)" });
    await shot(page, "dark-1-services");
    await page.getByRole("checkbox", { name: /Haircut/ }).check();
    await page.getByRole("checkbox", { name: /Beard trim/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    // Two services: the month marks each day on which both fit one after the other, and a
    // day shows its first such start.
    const day = dayAfter("America/New_York", 2);
    await pickDay(page, day);
    expect(await freeTimesOn(page, day).getByRole("button").count()).toBe(1);
    await shot(page, "dark-2-cart-slots");

    // Both services are held and booked together, back to back.
    await freeTimesOn(page, day).getByRole("button").first().click();
    await page.getByRole("timer").waitFor();
    await fillDetails(page, {
      first: "Alan",
      last: "Turing",
      phone: "+44 20 7946 0958",
      email: "alan@example.com",
    });
    await shot(page, "dark-3-details");
    await page.getByRole("button", { name: "Book" }).click();
    await page.getByRole("heading", { name: "You are booked" }).waitFor();
    await shot(page, "dark-4-confirmation");
    const uuids = await page
      .locator("[data-booking]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-booking") ?? ""));
    const booked = await Promise.all(uuids.map(getBooking));
    expect(booked.map((b) => b.ordered_services.map((s) => s.name)).flat()).toEqual([
      "Haircut",
      "Beard trim",
    ]);
    const [first, second] = booked.flatMap((b) => b.ordered_services);
    expect(second?.reserved_on).toBe(first?.reserved_until);
    await context.close();
  });
  it("renders the workspace's booking form: e-mail required, middle name and comment not shown", async () => {
    const form = `/api/admin/v1/workspaces/${salon.workspace}/booking-form`;
    await call(salon.base, form, {
      method: "PUT",
      body: {
        customer_email: "required",
        customer_middle_name: "hidden",
        booking_comment: "hidden",
      },
    });
    try {
      const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
      const page = await context.newPage();
      await page.goto(widgetUrl(salon, key));
      await page.getByRole("checkbox", { name: /Beard trim/ }).check();
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("button", { name: "Continue" }).click();
      const day = dayAfter("America/New_York", 1);
      await pickDay(page, day);
      await freeTimesOn(page, day).getByRole("button").last().click();
      await page.getByRole("heading", { name: "Your details" }).waitFor();

      expect(await page.getByLabel(/^Middle name/).count()).toBe(0);
      expect(await page.getByLabel(/^Comment/).count()).toBe(0);
      expect(await page.getByLabel(/^E-mail/).getAttribute("required")).not.toBeNull();
      await page.getByLabel(/^First name/).fill("Hedy");
      await page.getByLabel(/^Phone/).fill("+43 664 1234567");
      await page.getByRole("button", { name: "Book" }).click();
      await page.getByText("Please enter your e-mail address.").waitFor();
      await shot(page, "light-8-booking-form");
      await page.getByLabel(/^E-mail/).fill("hedy@example.com");
      await page.getByRole("button", { name: "Book" }).click();

      const booking = await getBooking(await bookedUuid(page));
      expect(await getCustomer(booking.customer_uuid)).toMatchObject({
        first_name: "Hedy",
        phone: "+436641234567",
        email: "hedy@example.com",
      });
      await context.close();
    } finally {
      // Fields left out are optional again.
      await call(salon.base, form, { method: "PUT", body: {} });
    }
  });
  it("embeds in an iframe on another site, which learns the widget's height", async () => {
    // A public site framing this machine's server is a local network access, which Chromium
    // asks the visitor to allow; a deployed Worker is public and needs no such permission.
    const context = await browser.newContext({
      ...DESKTOP,
      colorScheme: "light",
      permissions: ["local-network-access"],
    });
    const page = await context.newPage();
    // Another origin than the server's. A https site could not frame the plain-http server
    // (mixed content), and only a secure context (localhost is one) may be allowed below.
    const site = salon.base.replace("127.0.0.1", "localhost");
    const src = widgetUrl(salon, key);
    await page.route(`${site}/`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>Salon</title><h1>Our salon</h1>
          <iframe src="${src}" title="Book an appointment" style="width:100%;height:300px;border:0"></iframe>
          <script>
            window.heights = [];
            addEventListener("message", (e) => {
              if (e.origin === ${JSON.stringify(salon.base)} && e.data?.type === "salon-widget:height")
                window.heights.push(e.data.height);
            });
          </script>`,
      }),
    );
    await page.goto(`${site}/`);
    const frame = page.frameLocator('iframe[title="Book an appointment"]');
    await frame.getByRole("checkbox", { name: /Haircut/ }).check();
    await frame.getByRole("button", { name: "Continue" }).click();
    await frame.getByRole("heading", { name: "Who should it be?" }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { heights: number[] }).heights.length))
      .toBeGreaterThan(0);
    // Opening inside the frame did not scroll the host page away from its top.
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await shot(page, "light-9-embedded");
    await context.close();
  });
  it("a visitor who leaves with a time held gives it back", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    const holds = watchHolds(page);
    await page.goto(widgetUrl(salon, key));
    await page.getByRole("checkbox", { name: /Beard trim/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await pickDay(page, dayAfter("America/New_York", 1));
    await freeTimesOn(page, dayAfter("America/New_York", 1)).getByRole("button").nth(8).click();
    await page.getByRole("timer").waitFor();
    await expect.poll(() => holds.length).toBe(1);
    const held = `/api/public/v2/reservations/${holds[0]}`;
    expect((await request(salon.base, held, staff)).status).toBe(200);

    await page.goto("about:blank");
    await expect.poll(async () => (await request(salon.base, held, staff)).status).toBe(404);
    await context.close();
  });
});
