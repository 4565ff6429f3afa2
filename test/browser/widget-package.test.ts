import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { sweep } from "./a11y-checks";
import { DESKTOP, launch, shot } from "./browser";
import { call, widgetKey } from "./salon";
import { dayAfter, fillDetails, freeTimesOn, instant, pickDay } from "./widget-flow";

/**
 * A returning customer's package, end to end on `wrangler dev`: sold at the till, it is
 * listed on the manage page of one of their bookings, whose link opens the widget with the
 * package chosen; the widget offers only what the package pays for, books a covered service at price 0 (after refusing
 * another customer's phone), and the manage page then shows the credit held.
 */

const salon = inject("salon");
const staff = { key: salon.secretKey, workspace: salon.workspace };
const en = CATALOGUES.en;
const ZONE = "Europe/Berlin";
const PHONE = "+49 151 55501234";
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const say = (text: string, vars: Record<string, string>) =>
  Object.entries(vars).reduce((s, [k, v]) => s.replace(`{${k}}`, v), text);

interface Booking {
  uuid: string;
  customer_uuid: string;
  ordered_services: {
    uuid: string;
    name: string;
    price: number;
    discount: number;
    original_price: number;
  }[];
}

const admin = <T>(path: string, body: unknown) =>
  call<T>(salon.base, `/api/admin/v1/workspaces/${salon.workspace}${path}`, {
    method: "POST",
    body,
  });

/** A location of its own (the other widget tests count the main one's services). */
async function packageSalon() {
  const loc = await admin<{ uuid: string }>("/locations", {
    name: "Widget Salon Spa",
    timezone: ZONE,
    slot_step: 15,
  });
  const schedule = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "00:00",
    end: "24:00",
  }));
  const nora = await admin<{ uuid: string }>("/staffers", {
    first_name: "Nora",
    last_name: "Lang",
    location_uuids: [loc.uuid],
    schedule,
  });
  const service = (name: string, duration: number, price: number) =>
    call<{ uuid: string }>(salon.base, "/api/public/v2/services", {
      ...staff,
      method: "POST",
      body: { name, duration, price, location_uuids: [loc.uuid], staffer_uuids: [nora.uuid] },
    });
  const massage = await service("Massage", 60, 5000);
  const facial = await service("Facial", 30, 3000);
  // The till that sells packages, and who sells them.
  const seller = await admin<{ uuid: string }>("/staffers", {
    first_name: "Sam",
    last_name: "Kasse",
    location_uuids: [loc.uuid],
    permissions: ["access-pos"],
  });
  const till = await admin<{ uuid: string }>("/accounts", {
    location_uuid: loc.uuid,
    name: "Spa till",
    type: "cash",
  });
  return {
    location: loc.uuid,
    massage: massage.uuid,
    facial: facial.uuid,
    seller: seller.uuid,
    till: till.uuid,
  };
}

/** The manage link in the booking's confirmation e-mail, as the customer receives it. */
async function linkInConfirmation(bookingUuid: string): Promise<string> {
  const q = new URLSearchParams({ booking_uuid: bookingUuid, kind: "booking-confirmation" });
  const list = await call<{ data: { body: string }[] }>(
    salon.base,
    `/api/public/v2/messages?${q}`,
    staff,
  );
  const url = list.data
    .map((m) => /\S+\/widget\/manage\?token=[\w-]+/.exec(m.body)?.[0])
    .find(Boolean);
  if (!url) throw new Error(`No manage link in ${JSON.stringify(list.data)}`);
  return url;
}

/**
 * A package sold to the customer at the spa's till, paid in cash: the order issues it to
 * them (the way a salon sells one), and the API lists it under the customer.
 */
async function sellPackage(customer: string, services: string[], total: number) {
  const template = await call<{ uuid: string }>(salon.base, "/api/public/v2/packages", {
    ...staff,
    method: "POST",
    body: {
      name: "5 massages",
      price: 20000,
      credits: [{ service_uuids: services, count: total }],
      valid_days: 180,
    },
  });
  const order = await call<{ uuid: string }>(salon.base, "/api/public/v2/orders", {
    ...staff,
    method: "POST",
    body: {
      location_uuid: spa.location,
      staffer_uuid: spa.seller,
      customer_uuid: customer,
      packages: [{ package_uuid: template.uuid, price: 20000, quantity: 1 }],
    },
  });
  await call(salon.base, `/api/public/v2/orders/${order.uuid}/pay`, {
    ...staff,
    method: "POST",
    body: { account_uuid: spa.till },
  });
  const owned = await call<{ data: { uuid: string; order_uuid: string }[] }>(
    salon.base,
    `/api/public/v2/customer-packages?customer_uuid=${customer}`,
    staff,
  );
  const sold = owned.data.find((p) => p.order_uuid === order.uuid);
  if (!sold) throw new Error(`No package issued by order ${order.uuid}: ${JSON.stringify(owned)}`);
  return sold.uuid;
}

const packageItem = (page: Page, uuid: string) => page.locator(`li[data-package="${uuid}"]`);

let browser: Browser;
let spa: Awaited<ReturnType<typeof packageSalon>>;
beforeAll(async () => {
  browser = await launch();
  spa = await packageSalon();
});
afterAll(async () => {
  await browser?.close();
});

describe("a returning customer books with their package", () => {
  it("sees it on the manage page, books a covered service with it at price 0, and sees the credit held", async () => {
    // A booking of theirs, paid as usual: its confirmation carries the manage link.
    const first = await call<Booking>(salon.base, "/api/public/v2/bookings", {
      ...staff,
      method: "POST",
      body: {
        timezone: ZONE,
        location_uuid: spa.location,
        service_uuid: spa.facial,
        reserved_on: iso(instant(dayAfter(ZONE, 40), "09:00", ZONE)),
        customer_first_name: "Paula",
        customer_phone: PHONE,
        customer_email: "paula@example.com",
      },
    });
    const pkg = await sellPackage(first.customer_uuid, [spa.massage], 5);
    const link = await linkInConfirmation(first.uuid);

    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    // The customer has used the salon's widget in this browser before.
    const key = await widgetKey(salon.base, salon.workspace);
    await page.goto(
      `${salon.base}/widget?workspace=${salon.workspace}&location=${spa.location}&key=${key}`,
    );
    await page.getByRole("heading", { name: en["services.heading"] }).waitFor();

    // The manage page lists the package: what it has left, for what, until when.
    await page.goto(link);
    await page.getByRole("heading", { name: en["manage.packages"] }).waitFor();
    const item = packageItem(page, pkg);
    await item.getByRole("heading", { name: "5 massages" }).waitFor();
    const text = await item.innerText();
    expect(text).toContain(say(en["manage.package_left"], { left: "5", total: "5" }));
    expect(text).toContain(say(en["manage.package_for"], { services: "Massage" }));
    await sweep(page, "manage-packages");

    // Its link opens the widget with the package chosen: only what it pays for, paid by it.
    await item.getByRole("link", { name: en["manage.package_book"] }).click();
    await page
      .getByText(say(en["package.booking_with"], { name: "5 massages", left: "5" }))
      .waitFor();
    expect(new URL(page.url()).searchParams.get("package")).toBe(pkg);
    await page.getByRole("heading", { name: en["services.heading"] }).waitFor();
    expect(await page.getByRole("checkbox").count()).toBe(1);
    const massage = page.getByRole("checkbox", { name: /Massage/ });
    expect(await page.locator("label.choice").innerText()).toContain(en["package.covered"]);
    await sweep(page, "widget-package-services");
    await massage.check();
    await page.getByRole("button", { name: en["common.continue"] }).click();
    await page.getByRole("heading", { name: en["staffer.heading"] }).waitFor();
    await page.getByRole("button", { name: en["common.continue"] }).click();

    const zone = DESKTOP.timezoneId ?? "America/New_York";
    const day = dayAfter(zone, 41);
    await pickDay(page, day);
    await freeTimesOn(page, day).getByRole("button", { name: "10:00 AM", exact: true }).click();
    await page.getByRole("heading", { name: en["details.heading"] }).waitFor();
    expect(await page.locator(".summary-panel").innerText()).toContain(en["package.covered"]);

    // Someone else's phone: the package is not theirs, and the page says which field to check.
    await fillDetails(page, {
      first: "Paula",
      last: "Berg",
      phone: "+49 151 99990000",
      email: "paula@example.com",
    });
    await page.getByRole("button", { name: en["details.book"], exact: true }).click();
    await page.getByRole("alert").filter({ hasText: en["package.refused"] }).waitFor();
    await sweep(page, "widget-package-refused");

    // Their own phone books it, with nothing to pay online.
    await page.getByLabel(/^Phone/).fill(PHONE);
    await page.getByRole("button", { name: en["details.book"], exact: true }).click();
    await page.getByRole("heading", { name: en["done.heading"] }).waitFor();
    expect(await page.locator(".summary-panel").innerText()).toContain(en["package.covered"]);
    await shot(page, "widget-package-booked");
    const uuid = (await page.locator("[data-booking]").first().getAttribute("data-booking")) ?? "";
    const booked = await call<Booking>(salon.base, `/api/public/v2/bookings/${uuid}`, staff);
    expect(booked.customer_uuid).toBe(first.customer_uuid);
    // Paid by the credit: price 0, the catalogue price kept as the original.
    expect(booked.ordered_services).toMatchObject([
      { name: "Massage", price: 0, original_price: 5000 },
    ]);

    // The manage page now shows one credit held by the booking ahead.
    await page.goto(link);
    const after = packageItem(page, pkg);
    await expect
      .poll(() => after.innerText())
      .toContain(say(en["manage.package_left"], { left: "4", total: "5" }));
    expect(await after.innerText()).toContain(say(en["manage.package_reserved"], { count: "1" }));
    await shot(page, "manage-package-reserved");
    await context.close();
  });

  it("a browser that never opened the salon's widget is told where to book with it", async () => {
    const first = await call<Booking>(salon.base, "/api/public/v2/bookings", {
      ...staff,
      method: "POST",
      body: {
        timezone: ZONE,
        location_uuid: spa.location,
        service_uuid: spa.facial,
        reserved_on: iso(instant(dayAfter(ZONE, 42), "09:00", ZONE)),
        customer_first_name: "Greta",
        customer_phone: "+49 151 55507777",
        customer_email: "greta@example.com",
      },
    });
    const pkg = await sellPackage(first.customer_uuid, [spa.massage, spa.facial], 3);
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${await linkInConfirmation(first.uuid)}&lang=de`);
    const de = CATALOGUES.de;
    const item = packageItem(page, pkg);
    await item.getByText(de["manage.package_book_elsewhere"]).waitFor();
    expect(await item.innerText()).toContain(
      say(de["manage.package_for"], { services: "Massage, Facial" }),
    );
    expect(await item.getByRole("link").count()).toBe(0);
    await sweep(page, "manage-packages-no-widget");
    await context.close();
  });
});
