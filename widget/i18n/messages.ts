import { de } from "./de";
import { type Catalogue, en, type MessageKey } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import type { Locale } from "./locale";

export type { Catalogue, MessageKey };

export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es };

export type Translate = (key: MessageKey, vars?: Record<string, string>) => string;

/** Fills `{name}` from vars; a name without a value stays as written (a visible bug, not a crash). */
export function fill(template: string, vars: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}

export function translator(locale: Locale): Translate {
  const catalogue = CATALOGUES[locale];
  return (key, vars) => fill(catalogue[key], vars);
}
