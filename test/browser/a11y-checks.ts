import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { shot } from "./browser";

/** The WCAG 2.0, 2.1 and 2.2 success criteria of levels A and AA, as axe tags them. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

const violationsText = (
  violations: { id: string; help: string; nodes: { target: unknown[] }[] }[],
) =>
  violations
    .map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`)
    .join("\n");

/**
 * Visible targets under 24×24 CSS px. Stricter than WCAG 2.5.8, whose spacing exception would
 * pass a lone small control (the party-size select at 39×19): every target is to be 24×24,
 * but for a link inside a sentence (the criterion's inline exception). A checkbox or radio
 * counts as the label it sits in (the label takes the tap too).
 */
export const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [tabindex]:not([tabindex="-1"])';
    const describe = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.className ? `.${String(el.className).replace(/\s+/g, ".")}` : ""} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
    return Array.from(document.querySelectorAll<HTMLElement>(selector))
      .filter(
        (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden",
      )
      .map((el) => {
        const label = el.closest("label");
        const box =
          label && /checkbox|radio/.test((el as HTMLInputElement).type ?? "")
            ? label.getBoundingClientRect()
            : el.getBoundingClientRect();
        return { el, box };
      })
      .filter(({ el, box }) => {
        if (box.width >= 23.99 && box.height >= 23.99) return false;
        const inSentence =
          el.tagName === "A" &&
          getComputedStyle(el).display === "inline" &&
          (el.parentElement?.textContent ?? "").trim() !== (el.textContent ?? "").trim();
        return !inSentence;
      })
      .map(({ el, box }) => `${describe(el)} ${box.width.toFixed(0)}×${box.height.toFixed(0)}`);
  });

/**
 * Focusable elements that something else covers where they show: each is scrolled into view
 * as focus scrolls it (nearest edge) and what lies at its centre must be it (or inside it).
 */
export const coveredFocus = (page: Page) =>
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
export async function sweep(page: Page, name: string) {
  const { violations } = await new AxeBuilder({ page })
    // Passes and incompletes uncollected (the slow part); options() first: it replaces the
    // whole options object, withTags' rule selection included.
    .options({ resultTypes: ["violations"] })
    .withTags(TAGS)
    // In the page itself: no frames to gather from, so no extra page per run to merge them.
    .setLegacyMode()
    .analyze();
  expect(violations, `${name}: axe\n${violationsText(violations)}`).toEqual([]);
  expect(await smallTargets(page), `${name}: targets under 24×24`).toEqual([]);
  expect(await coveredFocus(page), `${name}: focusable elements covered`).toEqual([]);
  await shot(page, `a11y-${name}`);
}
