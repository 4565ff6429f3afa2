import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Catalogue } from "../../widget/i18n/messages";
import { CATALOGUES } from "../../widget/i18n/messages";
import type { Locale } from "../../widget/i18n/locale";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { SALON, serveLogo } from "./manage-stub";
import { call, createSalon, type Salon, widgetKey } from "./salon";

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
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const LOCALES: Locale[] = ["en", "de", "fr", "es"];
const VIEWPORTS: [string, BrowserContextOptions][] = [
  // The phone at scale 1: the sweep's screenshots need no retina pixels.
  ["phone", { ...PHONE, deviceScaleFactor: 1, timezoneId: "Europe/Berlin" }],
  ["desktop", { ...DESKTOP, timezoneId: "Europe/Berlin" }],
];

let browser: Browser;
let salon: Salon;
/** A service with a deposit, offered by Mia at the sweep salon's location (the pay step). */
const PAID = "Colour & cut";
/** A group service (its party-size control shows once it is ticked). */
const GROUP = "Workshop";

beforeAll(async () => {
  browser = await launch();
  // A salon of its own with a brand, an address and a phone: the pages show all of the face.
  salon = await createSalon(shared.base);
  const ws = `/api/admin/v1/workspaces/${salon.workspace}`;
  const patch = (path: string, body: unknown) =>
    call(salon.base, `${ws}${path}`, { method: "PATCH", body });
  await patch("", {
    brand: { name: SALON.name, logo_url: SALON.logo_url, accent_color: SALON.accent_color },
  });
  await patch(`/locations/${salon.location}`, { address: SALON.address, phone: SALON.phone });
  const service = (body: Record<string, unknown>) =>
    call(salon.base, "/api/public/v2/services", {
      key: salon.secretKey,
      workspace: salon.workspace,
      method: "POST",
      body: { location_uuids: [salon.location], staffer_uuids: [salon.staffers.mia], ...body },
    });
  await service({
    name: PAID,
    duration: 90,
    price: 8000,
    payment_policy: { mode: "deposit", deposit: { amount: 1200 } },
  });
  await service({ name: GROUP, duration: 60, price: 2000, capacity: 4 });
});
afterAll(async () => {
  await browser?.close();
});

const violationsText = (
  violations: { id: string; help: string; nodes: { target: unknown[] }[] }[],
) =>
  violations
    .map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`)
    .join("\n");

/**
 * Targets under 24×24 CSS px that neither WCAG 2.5.8 exception covers: inline (a link in a
 * line of text) or spaced (a 24 px circle on its centre meets no other target, nor the circle
 * of another small one). A checkbox or radio counts as the label it sits in.
 */
const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const targets = Array.from(document.querySelectorAll<HTMLElement>(selector))
      .filter((el) => {
        const style = getComputedStyle(el);
        return el.getClientRects().length > 0 && style.visibility !== "hidden";
      })
      .map((el) => {
        const label = el.closest("label");
        const box =
          label && (el as HTMLInputElement).type?.match(/checkbox|radio/)
            ? label.getBoundingClientRect()
            : el.getBoundingClientRect();
        return { el, box };
      });
    const describe = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).replace(/\s+/g, ".")}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
    const small = targets.filter(({ box }) => box.width < 23.99 || box.height < 23.99);
    const centre = (b: DOMRect) => ({ x: b.left + b.width / 2, y: b.top + b.height / 2 });
    const circleMeetsRect = (c: { x: number; y: number }, b: DOMRect) => {
      const dx = Math.max(b.left - c.x, 0, c.x - b.right);
      const dy = Math.max(b.top - c.y, 0, c.y - b.bottom);
      return dx * dx + dy * dy < 144;
    };
    return small
      .filter(({ el, box }) => {
        const inline =
          el.tagName === "A" &&
          getComputedStyle(el).display === "inline" &&
          (el.parentElement?.textContent ?? "").trim() !== (el.textContent ?? "").trim();
        if (inline) return false;
        const c = centre(box);
        const crowded =
          targets.some((o) => o.el !== el && circleMeetsRect(c, o.box)) ||
          small.some((o) => {
            if (o.el === el) return false;
            const d = centre(o.box);
            return (c.x - d.x) ** 2 + (c.y - d.y) ** 2 < 576;
          });
        return crowded;
      })
      .map(({ el, box }) => `${describe(el)} ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
  });

/**
 * Focusable elements that something else covers where they show: each is scrolled into view
 * as focus scrolls it (nearest edge) and what lies at its centre must be it (or inside it).
 */
const coveredFocus = (page: Page) =>
  page.evaluate(() => {
    const selector =
      'a[href], button:not(:disabled), input:not([type="hidden"]):not(:disabled), select, textarea, [tabindex]:not([tabindex="-1"])';
    const covered: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (el.getClientRects().length === 0) continue;
      el.scrollIntoView({ block: "nearest", inline: "nearest" });
      const b = el.getBoundingClientRect();
      const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
      if (hit && (hit === el || el.contains(hit) || hit.contains(el))) continue;
      covered.push(
        `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}" under ${hit?.tagName.toLowerCase()}.${hit?.className}`,
      );
    }
    scrollTo(0, 0);
    return covered;
  });

/** Every check of one state, and its screenshot. */
async function sweep(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  expect(violations, `${name}: axe\n${violationsText(violations)}`).toEqual([]);
  expect(await smallTargets(page), `${name}: targets under 24×24`).toEqual([]);
  expect(await coveredFocus(page), `${name}: focusable elements covered`).toEqual([]);
  await shot(page, `a11y-${name}`);
}

const heading = (page: Page, name: string) => page.getByRole("heading", { name }).waitFor();

async function widget(page: Page, c: Catalogue, lang: Locale, name: (s: string) => string) {
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
  await times.last().click();
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
  await times.last().click();
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
        status: 410,
        contentType: "application/json",
        body: JSON.stringify({ message: "Gone.", code: "reservation_expired", errors: {} }),
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

describe("WCAG 2.2 AA on every page and state", () => {
  for (const [viewport, options] of VIEWPORTS) {
    it(`${viewport}: every language, every state of the widget, the manage page and the offer page`, async () => {
      const context: BrowserContext = await browser.newContext({
        ...options,
        colorScheme: "light",
      });
      try {
        const page = await context.newPage();
        await serveLogo(page);
        for (const lang of LOCALES) {
          const c = CATALOGUES[lang];
          const name = (state: string) => `${viewport}-${lang}-${state}`;
          const manage = new URL(await widget(page, c, lang, name));
          manage.searchParams.set("lang", lang);
          await managePage(page, c, manage.href, name);
          await offerPage(page, c, lang, name);
        }
      } finally {
        await context.close();
      }
    });
  }
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
