import { de } from "./de";
import { type Catalogue, en, type MessageKey } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { fill } from "./fill";
import type { Locale } from "./locale";

export type { Catalogue, MessageKey };

export const CATALOGUES: Record<Locale, Catalogue> = { en, de, fr, es };

export type Translate = (key: MessageKey, vars?: Record<string, string>) => string;

export { fill };

export function translator(locale: Locale): Translate {
  const catalogue = CATALOGUES[locale];
  return (key, vars) => fill(catalogue[key], vars);
}
