import type { Page } from "playwright-core";
import { Temporal } from "temporal-polyfill";
import type { Salon } from "./salon";

export const widgetUrl = (s: Salon, key = s.widgetKey) =>
  `${s.base}/widget?workspace=${s.workspace}&location=${s.location}&key=${key}`;

export const dayAfter = (zone: string, days: number) =>
  Temporal.Now.plainDateISO(zone).add({ days }).toString();

/** The UTC instant of a wall-clock time in a zone. */
export const instant = (date: string, time: string, zone: string) =>
  Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(zone).toInstant()
    .epochMilliseconds;

export const freeTimes = (page: Page) =>
  page.getByRole("list", { name: "Free times", exact: true });

/** The free times listed for that date (not those of the date shown before). */
export const freeTimesOn = (page: Page, date: string) =>
  page.locator(`ul[aria-label="Free times"][data-date="${date}"]`);

/** The next day when it is in the same month, else the day itself (the month grid's ArrowRight). */
export const nextInMonth = (date: string) => {
  const next = Temporal.PlainDate.from(date).add({ days: 1 });
  return next.month === Temporal.PlainDate.from(date).month ? next.toString() : date;
};

/** A day's button in the date step's month grid. */
export const dayButton = (page: Page, date: string) =>
  page.locator(`table[role="grid"] button[data-date="${date}"]`);

/**
 * Picks a day with free times in the month grid, going to the next months (up to three) when
 * the day is in one of them; returns once the grid shows it chosen.
 */
export async function pickDay(page: Page, date: string) {
  await page.locator('table[role="grid"] button[data-date]').first().waitFor();
  for (let i = 0; i < 3 && (await dayButton(page, date).count()) === 0; i++)
    await page.locator(".month-nav button").last().click();
  // Free once the month's answer is in: before, every day reads as not offered.
  const day = page.locator(
    `table[role="grid"] button[data-date="${date}"].day-free:not([aria-disabled])`,
  );
  await day.click();
  await page.locator(`td[aria-selected="true"] button[data-date="${date}"]`).waitFor();
}

export async function fillDetails(
  page: Page,
  d: { first: string; last: string; phone: string; email: string; comment?: string },
) {
  await page.getByLabel(/^First name/).fill(d.first);
  await page.getByLabel(/^Last name/).fill(d.last);
  await page.getByLabel(/^Phone/).fill(d.phone);
  await page.getByLabel(/^E-mail/).fill(d.email);
  if (d.comment !== undefined) await page.getByLabel(/^Comment/).fill(d.comment);
}

/** The focused control's name as a screen reader reads it: its aria-label, label or text. */
export const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement & { labels?: NodeListOf<HTMLLabelElement> };
    return (
      el.getAttribute("aria-label") ??
      el.labels?.[0]?.textContent ??
      el.textContent ??
      ""
    ).trim();
  });

/** Presses Tab until the focused control's label matches; fails after 40 presses. */
export async function tabTo(page: Page, name: RegExp) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    if (name.test(await focusedLabel(page))) return;
  }
  throw new Error(`No control matching ${name} reached with Tab`);
}
