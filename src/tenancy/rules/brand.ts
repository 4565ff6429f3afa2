import { getContrast } from "color2k";

/** WCAG 2 AA for normal text: the accent colour is drawn on white (buttons, links). */
export const MIN_ACCENT_CONTRAST = 4.5;

/** `#rrggbb`, either case; stored lower-case. */
export const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The WCAG 2 contrast ratio (relative luminance) of a `#rrggbb` colour against white. */
export const contrastOnWhite = (hex: string): number => getContrast(hex, "#ffffff");

/** Whether text in this colour on white, or white text on it, is readable by WCAG 2 AA. */
export const readableOnWhite = (hex: string): boolean =>
  HEX_COLOR.test(hex) && contrastOnWhite(hex) >= MIN_ACCENT_CONTRAST;

/** A logo's URL is drawn by customers' browsers: long enough for any real one, no more. */
export const MAX_LOGO_URL = 2048;

/** Why a logo URL is refused (null: it is taken, as `logoHref` normalises it). */
export type LogoRefusal = "not_https" | "credentials" | "too_long";

/**
 * The logo URL as it is stored and drawn: the parsed URL's own form (trimmed,
 * host lower-cased, characters escaped), so what pages load is what was
 * checked. A URL carrying a username or password is refused: the pages would
 * hand those to every customer's browser.
 */
export function logoHref(text: string): { href: string } | { refused: LogoRefusal } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { refused: "not_https" };
  }
  if (url.protocol !== "https:") return { refused: "not_https" };
  if (url.username !== "" || url.password !== "") return { refused: "credentials" };
  if (url.href.length > MAX_LOGO_URL) return { refused: "too_long" };
  return { href: url.href };
}

/** The normalised https: URL without credentials, within the cap, else null. */
export function httpsUrl(text: string): string | null {
  const taken = logoHref(text);
  return "href" in taken ? taken.href : null;
}
