import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { CATALOGUES } from "../../widget/i18n/messages";
import { formatDuration, formatPrice } from "../../widget/service-terms";
import { DESKTOP, launch, shot } from "./browser";
import { SHOWROOM, widgetKey } from "./salon";
import { dayAfter, instant, pickDay, widgetUrl } from "./widget-flow";

const salon = inject("salon");
const de = CATALOGUES.de;
const fr = CATALOGUES.fr;
const NEW_YORK = "America/New_York";

const FRENCH: BrowserContextOptions = {
  viewport: { width: 1000, height: 800 },
  locale: "fr-FR",
  timezoneId: "Europe/Paris",
};

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

/** The showroom's services as a customer of that locale must read them (hidden parts left out). */
function expectedTerms(language: keyof typeof CATALOGUES, locale: string) {
  const t = CATALOGUES[language];
  return SHOWROOM.map((s) => {
    const pays = "price_discount" in s ? s.price_discount : s.price;
    const price = formatPrice(pays, "EUR", locale);
    const parts = [
      "is_duration_hidden" in s ? null : formatDuration(s.duration, locale),
      "is_price_hidden" in s
        ? null
        : "starting_at" in s
          ? t["services.from_price"].replace("{price}", price)
          : price,
    ].filter((p) => p !== null);
    return parts.length ? [s.name, parts.join(" · ")] : [s.name];
  });
}

async function showroom(options: BrowserContextOptions, query: string) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const key = await widgetKey(salon.base, salon.workspace);
  await page.goto(`${widgetUrl({ ...salon, location: salon.showroom }, key)}${query}`);
  await page.locator("label.choice").first().waitFor();
  const choices = await page
    .locator("label.choice")
    .evaluateAll((labels) =>
      labels.map((l) => (l as HTMLElement).innerText.split("\n").filter((line) => line.trim())),
    );
  return { context, page, choices };
}

describe("the widget in four languages", () => {
  it("speaks German when asked with lang=de, in an English browser: headings, labels, messages, dates", async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: "light" });
    const page = await context.newPage();
    const key = await widgetKey(salon.base, salon.workspace);
    await page.goto(`${widgetUrl(salon, key)}&lang=de`);
    await page.getByRole("heading", { name: de["services.heading"] }).waitFor();
    expect(await lang(page)).toBe("de");
    expect(await page.title()).toBe(de["page.title"]);
    await page.getByRole("checkbox", { name: /Haircut/ }).check();
    await page.getByRole("button", { name: de["common.continue"] }).click();
    await page.getByRole("heading", { name: de["staffer.heading"] }).waitFor();
    expect(await page.getByRole("radio", { name: de["staffer.anyone"] }).isChecked()).toBe(true);
    await page.getByRole("button", { name: de["common.continue"] }).click();

    await page.getByRole("heading", { name: de["slot.heading"] }).waitFor();
    await page.getByText(de["slot.your_zone"]).waitFor();
    const day = dayAfter(NEW_YORK, 4);
    await pickDay(page, day);
    // German times: 24-hour clock, on the customer's own clock.
    const slot = page
      .locator(`ul[aria-label="${de["slot.free_times"]}"][data-date="${day}"]`)
      .getByRole("button", { name: "13:30", exact: true });
    await slot.click();

    await page.getByRole("heading", { name: de["details.heading"] }).waitFor();
    const german = new Date(instant(day, "13:30", NEW_YORK)).toLocaleString("de", {
      weekday: "long",
      day: "numeric",
      month: "long",
      hour: "numeric",
      minute: "2-digit",
      timeZone: NEW_YORK,
    });
    expect(german).toMatch(/^(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), \d/);
    expect(await page.locator(".summary").innerText()).toContain(german);
    await page
      .getByRole("timer")
      .filter({ hasText: /Wir halten diese Zeit noch \d:\d\d für Sie frei/ })
      .waitFor();
    expect(await page.getByLabel(/^Vorname/).count()).toBe(1);
    expect(await page.getByLabel(/^Nachname \(optional\)/).count()).toBe(1);
    await page.getByRole("button", { name: de["details.book"] }).click();
    await page.getByText(de["details.first_name_missing"]).waitFor();
    await page.getByText(de["details.phone_invalid"]).waitFor();
    await shot(page, "i18n-de-details");
    // Leaving gives the held time back.
    await page.goto("about:blank");
    await context.close();
  });

  it("speaks the browser's language without a lang parameter (fr-FR → fr), and lang wins over it", async () => {
    const { context, page, choices } = await showroom(FRENCH, "");
    expect(await lang(page)).toBe("fr");
    await page.getByRole("heading", { name: fr["services.heading"] }).waitFor();
    expect(await page.title()).toBe(fr["page.title"]);
    expect(choices).toEqual(expectedTerms("fr", "fr-FR"));
    expect(choices.find(([name]) => name === "Balayage")?.[1]).toMatch(/à partir de 120,00/);
    await shot(page, "i18n-fr-browser");
    await page.goto(`${page.url()}&lang=es`);
    await page.getByRole("heading", { name: CATALOGUES.es["services.heading"] }).waitFor();
    expect(await lang(page)).toBe("es");
    await context.close();
  });

  it.each(["en", "de", "fr", "es"] as const)(
    "lang=%s: the page declares it, and services show duration and price unless hidden",
    async (locale) => {
      const { context, page, choices } = await showroom(DESKTOP, `&lang=${locale}`);
      expect(await lang(page)).toBe(locale);
      await page.getByRole("heading", { name: CATALOGUES[locale]["services.heading"] }).waitFor();
      // An English (en-US) browser: English formats with its variant, the others with the language.
      expect(choices).toEqual(expectedTerms(locale, locale === "en" ? "en-US" : locale));
      // Consultation hides its duration, Perm its price, Surprise both, in every language.
      expect(choices.find(([n]) => n === "Surprise")).toEqual(["Surprise"]);
      expect(choices.find(([n]) => n === "Perm")?.[1]).not.toMatch(/\d[.,]\d\d/);
      await context.close();
    },
  );
});
