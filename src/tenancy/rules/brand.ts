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

/** The URL as written when it parses and is https:, else null. */
export function httpsUrl(text: string): string | null {
  if (text.length > MAX_LOGO_URL) return null;
  try {
    return new URL(text).protocol === "https:" ? text : null;
  } catch {
    return null;
  }
}
