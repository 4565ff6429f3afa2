import type { Browser, BrowserContextOptions } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DESKTOP, launch, PHONE, shot } from "./browser";
import { widgetKey } from "./salon";
import { widgetUrl } from "./widget-flow";

const salon = inject("salon");

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

/** Each offered service as the customer reads it: its name, then its line of terms (if any). */
async function serviceList(options: BrowserContextOptions, name: string) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const key = await widgetKey(salon.base, salon.workspace);
  await page.goto(widgetUrl({ ...salon, location: salon.showroom }, key));
  await page.locator("label.choice").first().waitFor();
  await shot(page, name);
  const choices = await page
    .locator("label.choice")
    .evaluateAll((labels) =>
      labels.map((l) => (l as HTMLElement).innerText.split("\n").filter((line) => line.trim())),
    );
  await context.close();
  return choices;
}

describe("the widget's service list", () => {
  it("shows each service's duration and price as the service says, in the browser's language", async () => {
    expect(await serviceList(DESKTOP, "services-terms-en")).toEqual([
      ["Colour", "1 hr 30 min · €60.00"],
      ["Consultation", "€25.00"],
      ["Perm", "2 hr"],
      ["Surprise"],
      ["Balayage", "2 hr 30 min · from €120.00"],
      ["Fringe", "15 min · €8.00"],
    ]);
    expect(await serviceList(PHONE, "services-terms-de")).toEqual([
      ["Colour", "1 Std., 30 Min. · 60,00\u00a0€"],
      ["Consultation", "25,00\u00a0€"],
      ["Perm", "2 Std."],
      ["Surprise"],
      // A German browser gets the widget in German: its words as well as its numbers.
      ["Balayage", "2 Std., 30 Min. · ab 120,00\u00a0€"],
      ["Fringe", "15 Min. · 8,00\u00a0€"],
    ]);
  });
});
