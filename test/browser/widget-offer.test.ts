import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { launch, PHONE, shot } from "./browser";
import { call } from "./salon";
import { dayAfter, instant } from "./widget-flow";

/**
 * The waitlist offer page against the real API on `wrangler dev`: a customer joins the
 * waitlist for a day with free time, the location's desk offers it (its alarm, nothing
 * else), the link is taken from the offer message the API wrote, and the customer books it
 * in the browser, in the language the entry was made in. The entry is then read through the API.
 */

const salon = inject("salon");
const ZONE = "Europe/Berlin";
const staff = { key: salon.secretKey, workspace: salon.workspace };
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
beforeAll(async () => {
  browser = await launch();
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
    await shot(page, "offer-1-view");

    await page.getByRole("button", { name: de["offer.book"] }).click();
    await page.getByText(/^Gebucht!/).waitFor();
    await shot(page, "offer-2-booked");
    const after = await call<Entry>(salon.base, `/api/public/v2/waitlist/${entry.uuid}`, staff);
    expect(after.status).toBe("booked");
    expect(after.booking_uuid).toEqual(expect.any(String));
    // No key ever left the page.
    expect(keys.every((k) => k === undefined)).toBe(true);
    await context.close();
  });
});
