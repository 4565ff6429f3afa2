import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES, type Catalogue } from "../../widget/i18n/messages";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { call, widgetKey } from "./salon";
import { dayAfter, instant, pickDay } from "./widget-flow";

/**
 * The widget's pay step against stripe-local's hosted page (the server's STRIPE_* settings point
 * the Worker there, and its signed events come back to the Worker's webhook): a deposit paid
 * by card books; a declined card leaves the customer on that page, whose Back link returns to
 * the pay step with the time still held.
 */

const salon = inject("salon");
const stripe = inject("stripe");
const staff = { key: salon.secretKey, workspace: salon.workspace };
const zone = DESKTOP.timezoneId ?? "America/New_York";

interface Booking {
  uuid: string;
  start_time: string;
  customer_uuid: string;
  ordered_services: { name: string }[];
}
interface Reservation {
  uuid: string;
  expires_at: string;
  checkout: { status: string; booking_uuid: string | null; manage_url?: string | null } | null;
}

let browser: Browser;
let location = "";

/** A location of its own (the other widget tests count the main one's services). */
async function paySalon() {
  const admin = <T>(path: string, body: unknown) =>
    call<T>(salon.base, `/api/admin/v1/workspaces/${salon.workspace}${path}`, {
      method: "POST",
      body,
    });
  const loc = await admin<{ uuid: string }>("/locations", {
    name: "Widget Salon Pay",
    timezone: "Europe/Berlin",
    slot_step: 15,
  });
  const schedule = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "00:00",
    end: "24:00",
  }));
  const lena = await admin<{ uuid: string }>("/staffers", {
    first_name: "Lena",
    last_name: "Koch",
    location_uuids: [loc.uuid],
    schedule,
  });
  const service = (name: string, duration: number, price: number, payment_policy: unknown) =>
    call(salon.base, "/api/public/v2/services", {
      ...staff,
      method: "POST",
      body: {
        name,
        duration,
        price,
        location_uuids: [loc.uuid],
        staffer_uuids: [lena.uuid],
        payment_policy,
      },
    });
  await service("Colour & cut", 90, 8000, {
    mode: "deposit",
    deposit: { amount: 1200 },
    late_cancel: { window_minutes: 1440, fee: { amount: 1500 } },
    no_show_fee: { amount: 4000 },
  });
  // Nothing paid now: a card kept for the fees.
  await service("Beratung", 30, 3000, {
    mode: "card_on_file",
    late_cancel: { window_minutes: 2880, fee: { amount: 2000 } },
    no_show_fee: { amount: 3000 },
  });
  return loc.uuid;
}

beforeAll(async () => {
  browser = await launch();
  location = await paySalon();
});
afterAll(async () => {
  await browser?.close();
});

const getReservation = (uuid: string) =>
  call<Reservation>(salon.base, `/api/public/v2/reservations/${uuid}`, staff);

/** A service, anyone, a time the day after tomorrow, details: the pay step, in `c`'s words. */
async function toPayStep(
  page: Page,
  {
    service,
    time,
    c = CATALOGUES.en,
    clock = zone,
  }: { service: RegExp; time: string; c?: Catalogue; clock?: string },
) {
  const key = await widgetKey(salon.base, salon.workspace);
  await page.goto(
    `${salon.base}/widget?workspace=${salon.workspace}&location=${location}&key=${key}`,
  );
  await page.getByRole("checkbox", { name: service }).check();
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await page.getByRole("heading", { name: c["staffer.heading"] }).waitFor();
  await page.getByRole("button", { name: c["common.continue"] }).click();
  const day = dayAfter(clock, 2);
  await pickDay(page, day);
  // The list of that date (not of the one shown before), whatever the language calls it.
  await page
    .locator(`ul[data-date="${day}"]`)
    .getByRole("button", { name: time, exact: true })
    .click();
  await page.getByRole("heading", { name: c["details.heading"] }).waitFor();
  const field = (key: keyof Catalogue) => page.getByLabel(new RegExp(`^${c[key]}`));
  await field("details.first_name").fill("Ada");
  await field("details.last_name").fill("Lovelace");
  await field("details.phone").fill("+49 151 23456789");
  await field("details.email").fill("ada@example.com");
  // Payment comes next: the details step goes on instead of booking.
  await page.getByRole("button", { name: c["common.continue"] }).click();
  await page.getByRole("heading", { name: c["pay.heading"] }).waitFor();
  return day;
}

/** The hosted page's form, as a customer fills it. */
async function payByCard(page: Page, card: string, button: string) {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByLabel("Name on card").fill("Ada Lovelace");
  await page.getByRole("button", { name: button }).click();
}

const POLICY =
  "Free cancellation until 24 hours before; later it costs €15.00. Not showing up costs €40.00.";

describe("booking widget: pay step", () => {
  it("a deposit paid on the provider's page books the time; the confirmation says what was paid", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    const day = await toPayStep(page, { service: /Colour & cut/, time: "10:00 AM" });

    await page.getByText(POLICY).waitFor();
    await page
      .getByRole("timer")
      .filter({ hasText: /\d:\d\d/ })
      .waitFor();
    await shot(page, "pay-1-step");
    await page.getByRole("button", { name: "Pay deposit €12.00" }).click();

    // Same tab, on the provider's page: the amount the reservation fixed.
    await page.waitForURL(`${stripe}/c/pay/**`);
    await page.getByRole("heading", { name: /^Deposit for the booking/ }).waitFor();
    expect(await page.locator(".amount").innerText()).toBe("€12.00");
    await shot(page, "pay-2-hosted-page");
    await payByCard(page, "4242 4242 4242 4242", "Pay €12.00");

    await page.waitForURL(/\/widget\?.*#paid=/);
    const reservation = new URL(page.url()).hash.replace("#paid=", "");
    await page
      .getByRole("heading", { name: "You are booked" })
      .waitFor()
      .catch(async (e: unknown) => {
        throw new Error(`Not booked; the widget says: ${await page.locator("main").innerText()}`, {
          cause: e,
        });
      });
    await page.getByText("Paid €12.00").waitFor();
    await shot(page, "pay-3-confirmation");

    const uuid = await page.locator("[data-booking]").first().getAttribute("data-booking");
    const checkout = (await getReservation(reservation)).checkout;
    expect(checkout).toMatchObject({ status: "complete", booking_uuid: uuid });
    // The paid path's confirmation links the booking's manage page, as the checkout names it.
    expect(checkout?.manage_url).toMatch(/\/widget\/manage/);
    expect(
      await page.getByRole("link", { name: "Manage or cancel your booking" }).getAttribute("href"),
    ).toBe(checkout?.manage_url);
    const booking = await call<Booking>(salon.base, `/api/public/v2/bookings/${uuid}`, staff);
    expect(Date.parse(booking.start_time)).toBe(instant(day, "10:00", zone));
    expect(booking.ordered_services.map((s) => s.name)).toEqual(["Colour & cut"]);
    const customer = await call<{ first_name: string; phone: string; email: string }>(
      salon.base,
      `/api/public/v2/customers/${booking.customer_uuid}`,
      staff,
    );
    expect(customer).toMatchObject({
      first_name: "Ada",
      phone: "+4915123456789",
      email: "ada@example.com",
    });
    await context.close();
  });

  it("a declined card stays on the provider's page; its Back link returns to the pay step with the time still held, and paying from there books", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    await toPayStep(page, { service: /Colour & cut/, time: "1:00 PM" });
    await page.getByRole("button", { name: "Pay deposit €12.00" }).click();
    await page.waitForURL(`${stripe}/c/pay/**`);
    const hosted = page.url();

    await payByCard(page, "4000 0000 0000 0002", "Pay €12.00");
    await page.getByRole("alert").filter({ hasText: "Your card was declined." }).waitFor();
    await shot(page, "pay-4-declined");
    await page.getByRole("link", { name: "Back" }).click();

    await page.waitForURL(/\/widget\?.*#back=/);
    const reservation = new URL(page.url()).hash.replace("#back=", "");
    await page.getByRole("heading", { name: "Payment" }).waitFor();
    await page.getByText(POLICY).waitFor();
    await page
      .getByRole("timer")
      .filter({ hasText: /\d:\d\d/ })
      .waitFor();
    await shot(page, "pay-5-back");
    // The hold is still there (lengthened to the provider's page's life), its checkout open.
    const held = await getReservation(reservation);
    expect(held.checkout).toEqual({
      status: "open",
      booking_uuid: null,
      manage_url: null,
      confirmation_sent_to: [],
    });
    expect(Date.parse(held.expires_at)).toBeGreaterThan(Date.now() + 10 * 60_000);

    // What was typed came back with it: paying again opens the same page and books.
    await page.getByRole("button", { name: "Pay deposit €12.00" }).click();
    await page.waitForURL(hosted);
    await payByCard(page, "4242 4242 4242 4242", "Pay €12.00");
    await page.getByRole("heading", { name: "You are booked" }).waitFor();
    await page.getByText("Paid €12.00").waitFor();
    expect((await getReservation(reservation)).checkout?.status).toBe("complete");
    await context.close();
  });

  it("saves a card in German on a phone: nothing charged, the policy in German, the confirmation says the card is kept", async () => {
    const de = CATALOGUES.de;
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    await toPayStep(page, {
      service: /Beratung/,
      time: "10:00",
      c: de,
      clock: PHONE.timezoneId ?? "Europe/Berlin",
    });
    await page.getByText(de["pay.card_note"]).waitFor();
    // Intl writes the money and the window in German (a no-break space before €).
    await page
      .getByText(
        /^Kostenlose Stornierung bis 2 Tage vorher; danach kostet sie 20,00\s€\. Nicht zu erscheinen kostet 30,00\s€\.$/,
      )
      .waitFor();
    await shot(page, "pay-6-de-phone-save-card");
    await page.getByRole("button", { name: "Karte hinterlegen" }).click();

    await page.waitForURL(`${stripe}/c/pay/**`);
    await page.getByRole("heading", { name: "Save your card" }).waitFor();
    await shot(page, "pay-7-hosted-save-card");
    await payByCard(page, "4242 4242 4242 4242", "Save card");

    await page.waitForURL(/\/widget\?.*#paid=/);
    const reservation = new URL(page.url()).hash.replace("#paid=", "");
    await page.getByRole("heading", { name: de["done.heading"] }).waitFor();
    await page.getByText(de["done.card_saved"]).waitFor();
    expect(await page.getByText(/Bezahlt/).count()).toBe(0);
    await shot(page, "pay-8-de-card-saved");
    const uuid = await page.locator("[data-booking]").first().getAttribute("data-booking");
    expect((await getReservation(reservation)).checkout).toMatchObject({
      status: "complete",
      booking_uuid: uuid,
    });
    await context.close();
  });

  it("refusals of the checkout: payments unavailable offers Try again, a field the API refuses is marked on the details step", async () => {
    const en = CATALOGUES.en;
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    await toPayStep(page, { service: /Colour & cut/, time: "3:00 PM" });
    // What a real server cannot be made to answer on cue: the provider down, then a 422.
    const answers = [
      { status: 503, body: { code: "payments_unavailable", message: "Not now." } },
      {
        status: 422,
        body: {
          code: "validation_failed",
          message: "Invalid.",
          errors: { customer_email: ["Required by the booking form."] },
        },
      },
    ];
    await page.route("**/api/public/v2/reservations/*/checkout", (route) => {
      const answer = answers.shift();
      return answer
        ? route.fulfill({ status: answer.status, json: answer.body })
        : route.continue();
    });
    const pay = page.getByRole("button", { name: "Pay deposit €12.00" });
    await pay.click();
    await page.getByRole("alert").filter({ hasText: en["pay.unavailable"] }).waitFor();
    await shot(page, "pay-9-unavailable");
    expect(page.url()).toContain("/widget?");

    await page.getByRole("button", { name: en["common.try_again"] }).click();
    await page.getByRole("heading", { name: en["details.heading"] }).waitFor();
    await page.getByRole("alert").filter({ hasText: en["error.check_fields"] }).waitFor();
    const email = page.getByLabel(/^E-mail/);
    expect(await email.getAttribute("aria-invalid")).toBe("true");

    // Corrected, it goes on to the pay step and the hosted page as before.
    await email.fill("ada.lovelace@example.com");
    await page.getByRole("button", { name: en["common.continue"] }).click();
    await pay.click();
    await page.waitForURL(`${stripe}/c/pay/**`);
    await context.close();
  });
});
