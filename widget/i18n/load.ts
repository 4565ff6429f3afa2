import type { I18n } from "./context";
import type { Catalogue, MessageKey } from "./en";
import { fill } from "./fill";
import { chooseLocale, type Locale } from "./locale";

/**
 * Each language is its own chunk: a visitor downloads the words of the language the page
 * speaks, not of all four (the manage and offer pages still take them all through page.ts).
 */
const LOADERS: Record<Locale, () => Promise<Catalogue>> = {
  en: () => import("./en").then((m) => m.en),
  de: () => import("./de").then((m) => m.de),
  fr: () => import("./fr").then((m) => m.fr),
  es: () => import("./es").then((m) => m.es),
};

/** pageLanguage's on-demand twin: the language chosen, its catalogue loaded, the page told. */
export async function loadPageLanguage(title: MessageKey): Promise<I18n> {
  const params = new URLSearchParams(location.search);
  const { locale, format } = chooseLocale(params.get("lang"), navigator.languages ?? []);
  const catalogue = await LOADERS[locale]();
  const t = (key: MessageKey, vars?: Record<string, string>) => fill(catalogue[key], vars);
  document.documentElement.lang = locale;
  document.title = t(title);
  return { locale, format, t };
}
