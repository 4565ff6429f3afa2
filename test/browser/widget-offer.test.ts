import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { launch, PHONE, shot } from "./browser";
import { SALON, serveLogo } from "./manage-stub";
import { call, createSalon, type Salon } from "./salon";
import { dayAfter, instant } from "./widget-flow";

/**
 * The waitlist offer page against the real API on `wrangler dev`: a customer joins the
 * waitlist for a day with free time, the location's desk offers it (its alarm, nothing
 * else), the link is taken from the offer message the API wrote, and the customer books it
 * in the browser, in the language the entry was made in. The entry is then read through the API.
 */

const shared = inject("salon");
const ZONE = "Europe/Berlin";
const de = CATALOGUES.de;

interface Entry {
  uuid: string;
  status: string;
  offer: { start: string } | null;
  booking_uuid: string | null;
}

async function until<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("not in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

let browser: Browser;
// A salon of its own, given a brand, an address and a phone (the shared one stays plain).
let salon: Salon;
let staff: { key: string; workspace: string };
beforeAll(async () => {
  browser = await launch();
  salon = await createSalon(shared.base);
  staff = { key: salon.secretKey, workspace: salon.workspace };
  const admin = (path: string, body: unknown) =>
    call(salon.base, `/api/admin/v1/workspaces/${salon.workspace}${path}`, {
      method: "PATCH",
      body,
    });
  await admin("", {
    brand: { name: SALON.name, logo_url: SALON.logo_url, accent_color: SALON.accent_color },
  });
  await admin(`/locations/${salon.location}`, { address: SALON.address, phone: SALON.phone });
});
afterAll(async () => {
  await browser?.close();
});

describe("the waitlist offer page", () => {
  it("shows the held time on the salon's clock in the entry's language and books it", async () => {
    const day = dayAfter(ZONE, 60);
    const entry = await call<Entry>(salon.base, "/api/public/v2/waitlist", {
      ...staff,
      method: "POST",
      body: {
        location_uuid: salon.location,
        services: [{ service_uuid: salon.services.haircut, staffer_uuid: salon.staffers.mia }],
        customer_phone: "+4930765432",
        customer_first_name: "Wilma",
        customer_email: "wilma@example.com",
        customer_browser_language: "de-AT",
        from: day,
        to: day,
        times: [{ start: "15:00", end: "17:00" }],
      },
    });
    const offered = await until(async () => {
      const e = await call<Entry>(salon.base, `/api/public/v2/waitlist/${entry.uuid}`, staff);
      return e.status === "offered" ? e : undefined;
    });
    expect(offered.offer?.start).toBe(
      new Date(instant(day, "15:00", ZONE)).toISOString().replace(".000Z", "Z"),
    );
    const messages = await call<{ data: { body: string; channel: string }[] }>(
      salon.base,
      "/api/public/v2/messages?kind=waitlist-offer&per_page=100",
      staff,
    );
    const link = messages.data
      .map((m) => /\S+\/widget\/offer\?token=[\w-]+&lang=[\w-]+/.exec(m.body)?.[0])
      .find((l) => l !== undefined);
    if (!link) throw new Error(`no offer link in ${JSON.stringify(messages.data)}`);

    const context = await browser.newContext({ ...PHONE, colorScheme: "light" });
    const page = await context.newPage();
    await serveLogo(page);
    const keys: (string | undefined)[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/")) keys.push(r.headers().authorization);
    });
    await page.goto(link);
    await page.getByRole("heading", { name: de["offer.heading"] }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    const facts = page.locator("dl.facts");
    await expect.poll(() => facts.innerText()).toContain("Haircut · Mia");
    // 15:00 in Berlin, whatever zone the phone is in.
    expect(await facts.locator("dd[data-start]").innerText()).toContain("15:00");
    await expectFace(page);
    // The page's one action is its primary button, in the salon's accent.
    const book = page.getByRole("button", { name: de["offer.book"] });
    expect(await book.getAttribute("class")).toContain("primary");
    expect(await book.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
      "rgb(107, 47, 163)",
    );
    await shot(page, "offer-1-view");

    await book.click();
    await page.getByRole("heading", { name: de["offer.yours_heading"] }).waitFor();
    await page.getByText(/^Gebucht!/).waitFor();
    const manage = page.getByRole("link", { name: de["offer.manage"] });
    expect(await manage.getAttribute("href")).toMatch(/\/widget\/manage\?token=/);
    await expectFace(page);
    await shot(page, "offer-2-booked");
    const after = await call<Entry>(salon.base, `/api/public/v2/waitlist/${entry.uuid}`, staff);
    expect(after.status).toBe("booked");
    expect(after.booking_uuid).toEqual(expect.any(String));

    // The link opened again: the customer's booking, not an ended offer.
    await page.goto(link);
    await page.getByRole("heading", { name: de["offer.yours_heading"] }).waitFor();
    await page.getByText(de["offer.yours"]).waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await facts.locator("dd[data-start]").innerText()).toContain("15:00");
    await expectFace(page);
    await shot(page, "offer-3-booked-reopened");
    // Its link opens the booking's manage page, with the same salon.
    await page.getByRole("link", { name: de["offer.manage"] }).click();
    await page.getByRole("heading", { name: de["manage.heading"] }).waitFor();
    expect(await page.locator("dd[data-start]").getAttribute("data-start")).toBe(
      offered.offer?.start,
    );
    await expectFace(page);

    // A link that opens nothing still has its heading, and names no salon it cannot know.
    await page.goto(link.replace(/token=[\w-]+/, "token=tampered"));
    await page.getByRole("heading", { name: de["offer.ended_heading"] }).waitFor();
    await page.getByRole("alert").filter({ hasText: de["offer.invalid_token"] }).waitFor();
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(0);
    await shot(page, "offer-4-invalid");
    // No key ever left the page.
    expect(keys.every((k) => k === undefined)).toBe(true);
    await context.close();
  });
});

/** The salon's name and logo atop, last on the page how to reach it (name, address, phone). */
async function expectFace(page: Page) {
  await page.getByRole("heading", { level: 1, name: SALON.name }).waitFor();
  const logo = page.getByRole("img", { name: de["face.logo"].replace("{name}", SALON.name) });
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  const help = page.locator("#widget > :last-child");
  await help.getByRole("heading", { name: de["face.help"] }).waitFor();
  const text = await help.innerText();
  for (const part of [SALON.name, "Torstraße 1", "10119 Berlin"]) expect(text).toContain(part);
  expect(await help.getByRole("link").getAttribute("href")).toBe(`tel:${SALON.phone}`);
}
