import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { movedAnswer, problem, SALON, stubBooking, stubManageApi } from "./manage-stub";
import { dayAfter, instant } from "./widget-flow";

const salon = inject("salon");
const en = CATALOGUES.en;
const de = CATALOGUES.de;

const TOKEN = "v1.signed-booking-token";
const ZONE = "Europe/Berlin";
const manageUrl = (token: string, extra = "") =>
  `${salon.base}/widget/manage?token=${encodeURIComponent(token)}${extra}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
/** The page's "when", written here the way a customer of that locale reads it on the salon's clock. */
const when = (start: string, locale: string) =>
  new Date(start).toLocaleString(locale, {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
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

/**
 * A fresh page with the API stubbed: by default the browser in New York, not the salon's zone,
 * and the booking made from there (its own `timezone` is New York's, as the widget sends it).
 */
async function open(start: string, options = DESKTOP, salonZone = ZONE) {
  const context = await browser.newContext({ ...options, colorScheme: "light" });
  const page = await context.newPage();
  const clientZone = options.timezoneId ?? "UTC";
  const stub = await stubManageApi(page, TOKEN, stubBooking(start, clientZone), salonZone);
  return { context, page, stub };
}

const noKeys = (headers: Record<string, string>) => {
  expect(headers.authorization).toBeUndefined();
  expect(headers.workspace).toBeUndefined();
};

const heading = (page: Page, name: string) => page.getByRole("heading", { name }).waitFor();

/**
 * The salon's face: its name and logo atop; last on the page, whatever its state, how to
 * reach it (name, address, a phone link); its accent on the primary button.
 */
async function expectFace(page: Page, words = en) {
  await page.getByRole("heading", { level: 1, name: SALON.name }).waitFor();
  const logo = page.getByRole("img", { name: words["face.logo"].replace("{name}", SALON.name) });
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  const help = page.locator("#widget > :last-child");
  await help.getByRole("heading", { name: words["face.help"] }).waitFor();
  const text = await help.innerText();
  for (const part of [SALON.name, "Torstraße 1", "10119 Berlin"]) expect(text).toContain(part);
  expect(await help.getByRole("link").getAttribute("href")).toBe(`tel:${SALON.phone}`);
  const primary = page.locator("button.primary").first();
  if ((await primary.count()) > 0)
    expect(await primary.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(
      "rgb(107, 47, 163)",
    );
}

describe("the manage page reads and names the salon's zone, whatever the browser's", () => {
  const hint = (zone: string) => en["manage.salon_zone"].replace("{zone}", zone);

  it("a Paris browser sees a Berlin salon's booking named Europe/Berlin, never its own zone", async () => {
    const day = dayAfter(ZONE, 20);
    const start = iso(instant(day, "10:00", ZONE));
    const { context, page } = await open(start, { ...DESKTOP, timezoneId: "Europe/Paris" });
    await page.goto(manageUrl(TOKEN));
    await heading(page, en["manage.heading"]);
    await page.getByText(hint("Europe/Berlin")).waitFor();
    expect(await page.locator("body").innerText()).not.toContain("Europe/Paris");
    expect(await page.locator("dd[data-start]").innerText()).toBe(when(start, "en-US"));
    // The move step names the same zone.
    await page.getByRole("button", { name: en["manage.move"] }).click();
    await heading(page, en["manage.move_heading"]);
    await page.getByText(hint("Europe/Berlin")).waitFor();
    expect(await page.locator("body").innerText()).not.toContain("Europe/Paris");
    await context.close();
  });

  it("a New York salon's 14:00 reads 2:00 PM in a Berlin browser, as the e-mail writes it", async () => {
    const NEW_YORK = "America/New_York";
    const day = dayAfter(NEW_YORK, 20);
    const start = iso(instant(day, "14:00", NEW_YORK));
    const { context, page } = await open(
      start,
      { ...DESKTOP, timezoneId: "Europe/Berlin" },
      NEW_YORK,
    );
    await page.goto(manageUrl(TOKEN));
    await heading(page, en["manage.heading"]);
    const shown = await page.locator("dd[data-start]").innerText();
    expect(shown).toContain("02:00 PM");
    expect(shown).toBe(
      new Date(start).toLocaleString("en-US", {
        weekday: "long",
        day: "numeric",
        month: "long",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZone: NEW_YORK,
      }),
    );
    await page.getByText(hint(NEW_YORK)).waitFor();
    await context.close();
  });
});

describe("the widget's manage page", () => {
  it("shows the booking on the salon's clock with its policy, and cancels it after a confirmation, with no key", async () => {
    const day = dayAfter(ZONE, 10);
    const start = iso(instant(day, "10:00", ZONE));
    const { context, page, stub } = await open(start);
    await page.goto(manageUrl(TOKEN));
    await heading(page, en["manage.heading"]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("en");
    expect(await page.title()).toBe(en["manage.title"]);

    const facts = page.locator("dl.facts");
    await expect.poll(() => facts.innerText()).toContain("Haircut · 45 min");
    // The staffer by first name: all the API gives a link's holder.
    expect(await facts.innerText()).toContain("Mia");
    expect(await facts.innerText()).not.toContain("Wagner");
    // 10:00 in Berlin, although the browser sits in New York (04:00 there).
    expect(await facts.locator("dd[data-start]").innerText()).toBe(when(start, "en-US"));
    expect(await facts.locator("dd[data-start]").innerText()).toContain("10:00 AM");
    await page.getByText("Free cancellation up to 24 hours before.").waitFor();
    await page.getByText("Europe/Berlin").first().waitFor();
    await expectFace(page);
    await shot(page, "manage-1-view");

    await page.getByRole("button", { name: en["manage.cancel"] }).click();
    await page.getByText(en["manage.cancel_confirm"]).waitFor();
    await expectFace(page);
    await shot(page, "manage-2-cancel-confirm");
    // Changing one's mind sends nothing.
    await page.getByRole("button", { name: en["manage.cancel_no"] }).click();
    expect(stub.requests.filter((r) => r.method() === "POST")).toEqual([]);
    await page.getByRole("button", { name: en["manage.cancel"] }).click();
    await page.getByRole("button", { name: en["manage.cancel_yes"] }).click();

    await page.getByRole("alert").filter({ hasText: en["manage.canceled"] }).waitFor();
    await expectFace(page);
    await shot(page, "manage-3-canceled");
    const posts = stub.requests.filter((r) => r.method() === "POST");
    expect(posts.map((r) => new URL(r.url()).pathname)).toEqual([
      `/api/public/v2/manage/${encodeURIComponent(TOKEN)}/cancel`,
    ]);
    for (const r of stub.requests) noKeys(await r.allHeaders());
    // Nothing left to do with a canceled booking.
    expect(await page.getByRole("button", { name: en["manage.cancel"] }).count()).toBe(0);
    expect(await page.getByRole("button", { name: en["manage.move"] }).count()).toBe(0);
    await context.close();
  });

  it("moves the booking to a free time; a time taken meanwhile offers the alternatives", async () => {
    const day = dayAfter(ZONE, 12);
    const start = iso(instant(day, "10:00", ZONE));
    const { context, page, stub } = await open(start);
    stub.free = { [day]: ["09:00", "09:15", "14:30"].map((t) => iso(instant(day, t, ZONE))) };
    let attempts = 0;
    const moves: string[] = [];
    stub.onReschedule = (reservedOn) => {
      moves.push(reservedOn);
      attempts += 1;
      if (attempts === 1)
        return problem(409, "slot_unavailable", {
          alternatives: [{ start: iso(instant(day, "16:00", ZONE)), staffer_uuid: null }],
        });
      stub.booking = {
        ...stubBooking(reservedOn, stub.booking.timezone),
        policy: stub.booking.policy,
      };
      stub.token = `${TOKEN}.moved`;
      return movedAnswer(stub.booking, stub.token);
    };
    await page.goto(manageUrl(TOKEN));
    await page.getByRole("button", { name: en["manage.move"] }).click();
    await heading(page, en["manage.move_heading"]);

    // The booking's own day on the salon's calendar (a date: the API reads it in the salon's
    // zone), its free times on the salon's clock.
    const times = page.locator(`ul[aria-label="${en["slot.free_times"]}"][data-date="${day}"]`);
    // In English's own clock style, as the booking widget writes times: not "09:15 AM".
    await times.getByRole("button", { name: "9:15 AM", exact: true }).click();
    const search = stub.requests.find((r) => r.url().includes("/time-slots"));
    const q = new URL(search?.url() ?? "http://x").searchParams;
    expect(q.get("range_start")).toBe(day);
    expect(q.get("range_end")).toBe(day);
    await expectFace(page);
    await shot(page, "manage-4-move-pick");
    const quarterPast = iso(instant(day, "09:15", ZONE));
    await page
      .getByRole("button", {
        name: en["manage.move_to"].replace("{when}", when(quarterPast, "en-US")),
      })
      .click();

    // Taken meanwhile: the page says so and offers what the API found instead.
    await page.getByRole("alert").filter({ hasText: en["slot.taken_alternatives"] }).waitFor();
    const others = page.getByRole("list", { name: en["slot.other_free_times"] });
    await others.getByRole("button").first().click();
    await shot(page, "manage-5-move-conflict");
    const four = iso(instant(day, "16:00", ZONE));
    await page
      .getByRole("button", { name: en["manage.move_to"].replace("{when}", when(four, "en-US")) })
      .click();

    await page
      .getByRole("alert")
      .filter({ hasText: en["manage.moved"].replace("{when}", when(four, "en-US")) })
      .waitFor();
    expect(await page.locator("dd[data-start]").innerText()).toBe(when(four, "en-US"));
    await shot(page, "manage-6-moved");
    expect(moves).toEqual([quarterPast, four]);
    // The page went on with the fresh token the move's booking came with, in its address too.
    expect(new URL(page.url()).searchParams.get("token")).toBe(`${TOKEN}.moved`);
    // And calls the API with it from then on.
    await page.getByRole("button", { name: en["manage.move"] }).click();
    await heading(page, en["manage.move_heading"]);
    await expect
      .poll(() => stub.requests.at(-1)?.url() ?? "")
      .toContain(`/manage/${encodeURIComponent(`${TOKEN}.moved`)}/time-slots`);
    for (const r of stub.requests) noKeys(await r.allHeaders());
    await context.close();
  });

  it("a past policy window: the refusal is explained and the page stops offering the cancel", async () => {
    const day = dayAfter(ZONE, 3);
    const { context, page, stub } = await open(iso(instant(day, "10:00", ZONE)));
    stub.onCancel = () => {
      // The window closed between reading and cancelling.
      stub.booking = {
        ...stub.booking,
        policy: { ...stub.booking.policy, is_cancelable: false, is_changeable: false },
      };
      return problem(409, "policy_window_passed");
    };
    await page.goto(manageUrl(TOKEN));
    await page.getByRole("button", { name: en["manage.cancel"] }).click();
    await page.getByRole("button", { name: en["manage.cancel_yes"] }).click();
    // The refusal and the hints name the salon, the hints with its phone to call.
    const named = (key: "manage.not_cancelable_named" | "manage.not_changeable_named") =>
      en[key].replace("{salon}", SALON.name);
    await page
      .getByRole("alert")
      .filter({ hasText: en["manage.policy_window_passed_named"].replace("{salon}", SALON.name) })
      .waitFor();
    for (const key of ["manage.not_cancelable_named", "manage.not_changeable_named"] as const) {
      const hint = page.locator("p.hint").filter({ hasText: named(key) });
      expect(await hint.getByRole("link").getAttribute("href")).toBe(`tel:${SALON.phone}`);
    }
    await expectFace(page);
    expect(await page.getByRole("button", { name: en["manage.cancel"] }).count()).toBe(0);
    expect(await page.getByRole("button", { name: en["manage.move"] }).count()).toBe(0);
    await shot(page, "manage-7-policy-window");
    await context.close();
  });

  it("a booking already closed, and an invalid token, each say so in the page's language", async () => {
    const day = dayAfter(ZONE, 5);
    const { context, page, stub } = await open(iso(instant(day, "10:00", ZONE)), PHONE);
    stub.onCancel = () => problem(409, "booking_closed");
    // An older API, naming no salon: the page goes without header and help.
    stub.salon = null;
    // A German browser: the page speaks German without being asked.
    await page.goto(manageUrl(TOKEN));
    await heading(page, de["manage.heading"]);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: de["face.help"] }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("de");
    await page.getByRole("button", { name: de["manage.cancel"] }).click();
    await page.getByRole("button", { name: de["manage.cancel_yes"] }).click();
    await page.getByRole("alert").filter({ hasText: de["manage.booking_closed"] }).waitFor();

    await page.goto(manageUrl("tampered.token"));
    await page.getByRole("alert").filter({ hasText: de["manage.invalid_token"] }).waitFor();
    await shot(page, "manage-8-invalid-token-de");
    expect(await page.getByRole("button").count()).toBe(0);
    // Nor does a link without a token reach the API.
    const before = stub.requests.length;
    await page.goto(`${salon.base}/widget/manage?lang=fr`);
    await page.getByRole("alert").filter({ hasText: CATALOGUES.fr["manage.no_token"] }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("fr");
    expect(stub.requests.length).toBe(before);
    await context.close();
  });
});
