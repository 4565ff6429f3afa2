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
  it("renders both API documents with every request to another host blocked", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (new URL(url).origin === base) return route.continue();
      foreign.push(url);
      return route.abort("blockedbyclient");
    });
    await page.goto(`${base}/docs`);
    await page.getByText("Create a single-service booking").first().waitFor({ timeout: 60_000 });
    await page.getByText("Get a booking").first().waitFor();
    await shot(page, "docs-public");
    expect(foreign).toEqual([]);
    await context.close();
  });
});
