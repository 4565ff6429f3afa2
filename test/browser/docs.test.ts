import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launch, shot } from "./browser";

const { base } = inject("salon");

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

describe("/docs", () => {
  it("lists the bookings operations and both API documents with every other host blocked", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (new URL(url).origin === base) return route.continue();
      foreign.push(url);
      return route.abort("blockedbyclient");
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto(`${base}/docs`);
    await page.getByText("Bookings", { exact: true }).first().click();
    for (const operation of [
      "Create a single-service booking",
      "Get a booking",
      "List bookings, newest reservation first",
    ]) {
      await page.getByText(operation).first().waitFor();
    }
    await shot(page, "docs-public");

    // The second document is one choice away.
    await page.getByText("Public API v2").first().click();
    await page.getByRole("option", { name: "Management API v1" }).click();
    await page.getByText("Provisioning of workspaces").first().waitFor();
    await shot(page, "docs-management");

    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
