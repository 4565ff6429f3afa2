import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import sparticuz from "@sparticuz/chromium";
import { type Browser, type BrowserContextOptions, chromium, type Page } from "playwright-core";

/**
 * No sandbox (CI runs as root), no GPU, and no background calls home (component updates,
 * sync, safe-browsing lists): the machine's network reaches only the package registries.
 */
const OFFLINE = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/**
 * The package's flags are made for a serverless function; these would make the tests lie or
 * break: one process for everything (closing the first context closes the browser), and the
 * same-origin policy, site isolation and mixed-content blocking turned off (the widget's
 * cross-origin embedding and the API's CORS must meet a browser as strict as a customer's).
 */
const LAMBDA_ONLY = [
  "--single-process",
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--disable-site-isolation-trials",
  "--disable-features=",
];
const packageArgs = () =>
  sparticuz.args.filter((arg) => !LAMBDA_ONLY.some((drop) => arg.startsWith(drop)));

/**
 * Chromium from `npm ci` (@sparticuz/chromium ships it, unpacked to the temp folder on first
 * use), so a fresh machine needs no system browser and no root; CHROMIUM_PATH picks another.
 */
async function executable(): Promise<{ path: string; args: string[] }> {
  const own = process.env.CHROMIUM_PATH;
  if (own) return { path: own, args: OFFLINE };
  return { path: await unpacked(), args: [...packageArgs(), ...OFFLINE] };
}

/**
 * The package reuses whatever `chromium` its last unpacking left in the temp folder, even one
 * from an older version of the package: that one is thrown away and the installed one unpacked.
 */
async function unpacked(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  const pkg = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  const major = pkg.version.split(".")[0];
  const path = await sparticuz.executablePath();
  const version = execFileSync(path, ["--version"], { encoding: "utf8" });
  if (version.includes(` ${major}.`)) return path;
  rmSync(path, { force: true });
  return sparticuz.executablePath();
}

export async function launch(): Promise<Browser> {
  const { path, args } = await executable();
  try {
    return await chromium.launch({ executablePath: path, args, headless: true });
  } catch (e) {
    throw new Error(`Chromium did not start from ${path} (CHROMIUM_PATH overrides it)`, {
      cause: e,
    });
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
