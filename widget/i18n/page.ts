import type { I18n } from "./context";
import { chooseLocale } from "./locale";
import type { MessageKey } from "./messages";
import { translator } from "./messages";

/**
 * The language this page speaks, chosen once as it loads (`lang` in the address, else the
 * browser's languages, else English); the page then declares it in `<html lang>` and its
 * title, so screen readers and translators know what they read.
 */
export function pageLanguage(title: MessageKey): I18n {
  const params = new URLSearchParams(location.search);
  const { locale, format } = chooseLocale(params.get("lang"), navigator.languages ?? []);
  const t = translator(locale);
  document.documentElement.lang = locale;
  document.title = t(title);
  return { locale, format, t };
}
