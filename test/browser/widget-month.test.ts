import type { Browser, Page } from "playwright-core";
import { Temporal } from "temporal-polyfill";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, launch, shot } from "./browser";
import { call, widgetKey } from "./salon";
import { dayButton, fillDetails, freeTimesOn, widgetUrl } from "./widget-flow";

const base = inject("salon").base;
const ZONE = "Europe/Berlin";
const LOGO = "https://logo.example/lumen.svg";
const ACCENT = "#7a1fa2";

/**
 * A salon of its own (its brand, messages and staff would change what the other files'
 * salon shows): branded, its location with an address and a phone, e-mail confirmations on,
 * and one staffer who works a single weekday, three days from today.
 */
async function brandedSalon() {
  const admin = <T>(path: string, body: unknown, method = "POST") =>
    call<T>(base, `/api/admin/v1${path}`, { method, body });
  const ws = await admin<{ uuid: string; api_key: string }>("/workspaces", {
    name: "Lumen GmbH",
    country: "DE",
    currency: "EUR",
    locale: "en-GB",
    timezone: ZONE,
  });
  await admin(
    `/workspaces/${ws.uuid}`,
    { brand: { name: "Studio Lumen", logo_url: LOGO, accent_color: ACCENT } },
    "PATCH",
  );
  const loc = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: "Lumen Kreuzberg",
    timezone: ZONE,
    slot_step: 15,
    address: { line1: "Oranienstraße 12", city: "Berlin", postal_code: "10999", country: "DE" },
    phone: "+4930901820",
  });
  await admin(
    `/workspaces/${ws.uuid}/notification-settings`,
    {
      email: { enabled: true, from_name: "Studio Lumen", from_email: "hello@lumen.example" },
      sms: { enabled: false },
      reminders: [],
      templates: {},
    },
    "PUT",
  );
  const day = Temporal.Now.plainDateISO(ZONE).add({ days: 3 });
  await admin(`/workspaces/${ws.uuid}/staffers`, {
    first_name: "Lena",
    last_name: "Koch",
    location_uuids: [loc.uuid],
    schedule: [{ location_uuid: loc.uuid, weekday: day.dayOfWeek, start: "09:00", end: "18:00" }],
  });
  await call(base, "/api/public/v2/services", {
    key: ws.api_key,
    workspace: ws.uuid,
    method: "POST",
    body: { name: "Colour refresh", duration: 45, price: 5500, location_uuids: [loc.uuid] },
  });
  return {
    url: widgetUrl({
      base,
      workspace: ws.uuid,
      location: loc.uuid,
      widgetKey: await widgetKey(base, ws.uuid),
    } as Parameters<typeof widgetUrl>[0]),
    firstFree: day.toString(),
    today: Temporal.Now.plainDateISO(ZONE).toString(),
  };
}

const focused = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? "");

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("booking widget: month view, time grid, summary, confirmation", () => {
  it("opens on the first free day with one search a month, moves through the times by arrow keys, sums up the choice and confirms with the manage link and where it was sent, under the salon's face", async () => {
    const salon = await brandedSalon();
    const context = await browser.newContext({ ...DESKTOP, timezoneId: ZONE });
    const page = await context.newPage();
    // The logo's host is not reachable from the test machine: it answers here.
    await page.route(LOGO, (route) =>
      route.fulfill({
        contentType: "image/svg+xml",
        body: '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#7a1fa2"/></svg>',
      }),
    );
    const searches: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes("/time-slots")) searches.push(req.url());
    });
    await page.goto(salon.url);

    // The salon's face: its brand's name and logo, its accent, its address and phone.
    await page.getByRole("heading", { level: 1, name: "Studio Lumen" }).waitFor();
    expect(await page.getByRole("img", { name: "Studio Lumen logo" }).getAttribute("src")).toBe(
      LOGO,
    );
    const accent = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue("--accent").trim(),
    );
    expect(accent).toBe(ACCENT);
    const help = page.locator("footer.help");
    expect(await help.innerText()).toContain("Oranienstraße 12");
    expect(await help.getByRole("link").getAttribute("href")).toBe("tel:+4930901820");
    // Written as people write it (the API's phone_display), dialled as stored.
    expect(await help.getByRole("link").innerText()).toBe("+49 30 901820");

    await page.getByRole("checkbox", { name: /Colour refresh/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Who should it be?" }).waitFor();
    const summary = page.getByRole("complementary", { name: "Your choice" });
    expect(await summary.innerText()).toMatch(/Colour refresh[\s\S]*Any staff member/);
    await page.getByRole("radio", { name: "Lena Koch" }).check();
    await page.getByRole("button", { name: "Continue" }).click();

    // Lena works three days from today only: the month opens there, chosen.
    const chosen = page.locator('td[aria-selected="true"] button.day-free[data-date]');
    await chosen.waitFor();
    expect(await chosen.getAttribute("data-date")).toBe(salon.firstFree);
    expect(await chosen.getAttribute("aria-label")).toMatch(/, free times$/);
    const today = dayButton(page, salon.today);
    if ((await today.count()) > 0) {
      expect(await today.getAttribute("aria-current")).toBe("date");
      expect(await today.getAttribute("aria-label")).toMatch(/, no free times$/);
    }
    // One search a month: this month, and the next only when the free day lies there.
    const months = salon.firstFree.slice(0, 7) === salon.today.slice(0, 7) ? 1 : 2;
    expect(searches.length).toBe(months);
    expect(await summary.innerText()).toContain("Lena Koch");

    const times = freeTimesOn(page, salon.firstFree);
    const buttons = times.getByRole("button");
    expect(await buttons.first().innerText()).toBe("9:00 AM");
    expect(await buttons.last().innerText()).toBe("5:15 PM");
    await shot(page, "month-1-first-free-day");

    // The day's times are one Tab stop: from the chosen day, Tab lands on the first time.
    await chosen.focus();
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("9:00 AM");
    await page.keyboard.press("ArrowRight");
    expect(await focused(page)).toBe("9:15 AM");
    const columns = await times.evaluate((ul) => {
      const tops = Array.from(ul.querySelectorAll("button"), (b) => b.offsetTop);
      return tops.filter((t) => t === tops[0]).length;
    });
    await page.keyboard.press("ArrowDown");
    expect(await focused(page)).toBe(await buttons.nth(1 + columns).innerText());
    await page.keyboard.press("End");
    expect(await focused(page)).toBe("5:15 PM");
    await page.keyboard.press("Home");
    expect(await focused(page)).toBe("9:00 AM");
    await page.keyboard.press("End");
    // Tab leaves the grid at once; Shift+Tab comes back to the time it left.
    await page.keyboard.press("Tab");
    expect(await focused(page)).toBe("Back");
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe("5:15 PM");
    await page.keyboard.press("Enter");

    await page.getByRole("heading", { name: "Your details" }).waitFor();
    const when = Temporal.PlainDate.from(salon.firstFree).toPlainDateTime("17:15");
    const start = when.toZonedDateTime(ZONE).epochMilliseconds;
    expect(await summary.locator("dd[data-start]").getAttribute("data-start")).toBe(
      new Date(start).toISOString().replace(".000Z", "Z"),
    );
    expect(await summary.innerText()).toMatch(/5:15 PM[\s\S]*45 min[\s\S]*€55\.00/);
    await fillDetails(page, {
      first: "Ada",
      last: "Lovelace",
      phone: "+49 151 23456789",
      email: "ada@example.com",
    });
    await page.getByRole("button", { name: "Book" }).click();

    await page.getByRole("heading", { name: "You are booked" }).waitFor();
    await page.getByText("A confirmation was sent to ada@example.com.").waitFor();
    const done = page.getByRole("complementary", { name: "Your choice" });
    expect(await done.innerText()).toMatch(/Colour refresh[\s\S]*Lena Koch[\s\S]*5:15 PM/);
    expect(await help.count()).toBe(1);
    await shot(page, "month-2-confirmation");
    const manage = await page
      .getByRole("link", { name: "Manage or cancel your booking" })
      .getAttribute("href");
    expect(manage).toMatch(/\/widget\/manage/);
    // The link opens this booking's manage page.
    await page.goto(manage ?? "");
    await page.getByText("Colour refresh").first().waitFor();
    await context.close();
  });
});
