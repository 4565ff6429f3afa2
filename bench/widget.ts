import { gzipSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { Temporal } from "temporal-polyfill";
import { DESKTOP, launch } from "../test/browser/browser";
import { call, widgetKey } from "../test/browser/salon";
import { startServer } from "../test/browser/server";
import { focusedLabel } from "../test/browser/widget-flow";
import { percentile } from "./stats";

/**
 * `npm run bench -- --widget`: the booking widget as a customer meets it, in Chromium (the
 * browser tests' own, @sparticuz/chromium) against the browser tests' `wrangler dev` with the
 * built assets (`npm run build` first). A salon open 09:00–18:00 (Europe/Berlin) with a
 * 45-minute haircut on a 15-minute step; the page's clock is set to a minute past midnight of
 * tomorrow, so "today" is a whole open day whatever the hour the bench runs at.
 *
 * 1. Keyboard: Tab presses (and other keys) from a fresh page to having picked the LAST time
 *    of that day (17:15): the service (Space), Continue (Enter) until times show, then to the
 *    last time (Tab through a list; End and arrows in a grid with one Tab stop), Enter.
 * 2. Cold load (fresh context, empty cache), RUNS times: the gzipped bytes (gzip -6) of the
 *    JavaScript fetched before the first time button shows, and the wall time from navigation
 *    to that button, the bench ticking the service and Continue as soon as each shows.
 */
const RUNS = 5;
const ZONE = "Europe/Berlin";
const TIME = /^\d{1,2}:\d{2}(\s?[AP]M)?$/i;

interface BenchSalon {
  base: string;
  workspace: string;
  location: string;
  key: string;
}

async function openSalon(base: string): Promise<BenchSalon> {
  const admin = <T>(path: string, body?: unknown) =>
    call<T>(base, `/api/admin/v1${path}`, { method: "POST", body });
  const ws = await admin<{ uuid: string; api_key: string }>("/workspaces", {
    name: "Bench Salon",
    country: "DE",
    currency: "EUR",
    locale: "en-GB",
    timezone: ZONE,
  });
  const loc = await admin<{ uuid: string }>(`/workspaces/${ws.uuid}/locations`, {
    name: "Bench Salon Mitte",
    timezone: ZONE,
    slot_step: 15,
  });
  const schedule = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
    location_uuid: loc.uuid,
    weekday,
    start: "09:00",
    end: "18:00",
  }));
  for (const [first_name, last_name] of [
    ["Mia", "Wagner"],
    ["Jonas", "Becker"],
  ])
    await admin(`/workspaces/${ws.uuid}/staffers`, {
      first_name,
      last_name,
      location_uuids: [loc.uuid],
      schedule,
    });
  for (const [name, duration, price] of [
    ["Haircut", 45, 3500],
    ["Beard trim", 20, 1500],
  ] as const)
    await call(base, "/api/public/v2/services", {
      key: ws.api_key,
      workspace: ws.uuid,
      method: "POST",
      body: { name, duration, price },
    });
  return { base, workspace: ws.uuid, location: loc.uuid, key: await widgetKey(base, ws.uuid) };
}

const url = (s: BenchSalon) =>
  `${s.base}/widget?workspace=${s.workspace}&location=${s.location}&key=${s.key}`;

/** A fresh context whose pages read tomorrow 00:01 in the salon's zone as "now". */
async function freshContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ ...DESKTOP, timezoneId: ZONE });
  const tomorrow = Temporal.Now.plainDateISO(ZONE).add({ days: 1 });
  const at = tomorrow.toZonedDateTime({ timeZone: ZONE, plainTime: "00:01" }).epochMilliseconds;
  await context.clock.setFixedTime(at);
  return context;
}

/** The visible time buttons, in page order, and where the focus is among them (-1: elsewhere). */
const times = (page: Page) =>
  page.evaluate((source) => {
    const pattern = new RegExp(source, "i");
    const buttons = Array.from(document.querySelectorAll("button")).filter(
      (b) => pattern.test((b.textContent ?? "").trim()) && b.getClientRects().length > 0,
    );
    return {
      labels: buttons.map((b) => (b.textContent ?? "").trim()),
      focused: buttons.indexOf(document.activeElement as HTMLButtonElement),
      // One Tab stop for the whole grid: the others are out of the Tab order.
      roving: buttons.filter((b) => b.tabIndex === -1).length > 0,
    };
  }, TIME.source);

async function keyboardRun(browser: Browser, salon: BenchSalon) {
  const context = await freshContext(browser);
  const page = await context.newPage();
  let tabs = 0;
  let others = 0;
  const tab = async () => {
    tabs += 1;
    await page.keyboard.press("Tab");
  };
  const key = async (k: string) => {
    others += 1;
    await page.keyboard.press(k);
  };
  const tabTo = async (name: RegExp) => {
    for (let i = 0; i < 60; i++) {
      await tab();
      if (name.test(await focusedLabel(page))) return;
    }
    throw new Error(`nothing matching ${name} reached with Tab`);
  };
  await page.goto(url(salon));
  await page.getByText("Haircut").first().waitFor();
  await tabTo(/Haircut/);
  await key("Space");
  // Continue until the day's times show (the steps between may change; the times may not).
  for (let step = 0; ; step++) {
    if (step > 4) throw new Error("no times after four steps");
    await tabTo(/^Continue$/);
    await key("Enter");
    const shown = await page
      .waitForFunction(
        (source) =>
          Array.from(document.querySelectorAll("button")).some((b) =>
            new RegExp(source, "i").test((b.textContent ?? "").trim()),
          ),
        TIME.source,
        { timeout: 3_000 },
      )
      .then(() => true)
      .catch(() => false);
    if (shown) break;
  }
  // A grid with one Tab stop: End, then down a row while that gets nearer, then right.
  let tried = "";
  for (let i = 0; i < 400; i++) {
    const now = await times(page);
    const last = now.labels.length - 1;
    if (now.focused === last && last >= 0) break;
    if (now.focused < 0 || !now.roving) {
      await tab();
      continue;
    }
    const move = tried === "" ? "End" : tried === "ArrowRight" ? "ArrowRight" : "ArrowDown";
    await key(move);
    const after = (await times(page)).focused;
    if (move !== "ArrowRight" && (after <= now.focused || after > last)) tried = "ArrowRight";
    else tried = move;
    if (after > last || after < 0) throw new Error("the focus left the day's times");
  }
  const picked = await focusedLabel(page);
  await key("Enter");
  await context.close();
  return { tabs, others, picked };
}

async function coldRun(browser: Browser, salon: BenchSalon) {
  const context = await freshContext(browser);
  const page = await context.newPage();
  const scripts: Promise<number>[] = [];
  let counting = true;
  page.on("response", (res) => {
    if (!counting || res.request().resourceType() !== "script") return;
    scripts.push(
      res.body().then(
        (body) => gzipSync(body).length,
        () => 0,
      ),
    );
  });
  const started = performance.now();
  await page.goto(url(salon), { waitUntil: "commit" });
  await page.getByRole("checkbox", { name: /Haircut/ }).check();
  for (let step = 0; step < 4; step++) {
    const next = page.getByRole("button", { name: "Continue", exact: true });
    const time = page.getByRole("button", { name: TIME }).first();
    await next.or(time).first().waitFor();
    if (await time.isVisible()) break;
    await next.click();
  }
  await page.getByRole("button", { name: TIME }).first().waitFor();
  const ms = performance.now() - started;
  counting = false;
  const bytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
  await context.close();
  return { ms, bytes, files: scripts.length };
}

export async function runWidgetBench() {
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    const salon = await openSalon(server.base);
    browser = await launch();
    // One warm-up load: wrangler dev compiles the Worker on its first requests.
    await coldRun(browser, salon);
    const keys = await keyboardRun(browser, salon);
    const cold = [];
    for (let i = 0; i < RUNS; i++) cold.push(await coldRun(browser, salon));
    const ms = cold.map((c) => c.ms).sort((a, b) => a - b);
    console.log("widget (Chromium, wrangler dev, en-US desktop, a 09:00–18:00 day):");
    console.log(
      `  keyboard to the day's last time (${keys.picked}): ${keys.tabs} Tab presses, ${keys.others} other keys`,
    );
    console.log(
      `  cold load JS before the first time shows: ${cold[0]?.bytes ?? 0} bytes gzipped in ${cold[0]?.files ?? 0} file(s)`,
    );
    console.log(
      `  navigation to the first time button (cold, ${RUNS} runs): median ${percentile(ms, 50).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms`,
    );
  } finally {
    await browser?.close();
    server.stop();
  }
}
