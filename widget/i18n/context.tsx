import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Locale } from "./locale";
import type { Translate } from "./messages";

/** The page's language: its messages and the tag Intl formats dates, times and prices with. */
export interface I18n {
  locale: Locale;
  format: string;
  t: Translate;
}

/**
 * Every page provides its language; without one a message shows its key. (No catalogue is
 * imported here: the booking widget loads only the language it speaks, see load.ts.)
 */
const unset: I18n = { locale: "en", format: "en", t: (key) => key };

export const I18nContext = createContext<I18n>(unset);

export const useI18n = () => useContext(I18nContext);
