import { mkdirSync } from "node:fs";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";

/** Debian's package; Playwright's own browser download is not used. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launch(): Promise<Browser> {
  try {
    return await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  } catch (e) {
    throw new Error(
      `Chromium did not start from ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
      { cause: e },
    );
  }
}

export const DESKTOP: BrowserContextOptions = {
  viewport: { width: 1000, height: 800 },
  locale: "en-US",
  // Not the salon's zone (Europe/Berlin): the widget must show the customer's own clock.
  timezoneId: "America/New_York",
};

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
  locale: "de-DE",
  timezoneId: "Europe/Berlin",
};

/** A full-page screenshot under test-results/ (CI keeps the folder as an artefact). */
export async function shot(page: Page, name: string) {
  mkdirSync("test-results/screenshots", { recursive: true });
  await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
}
