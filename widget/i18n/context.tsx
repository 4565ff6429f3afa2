import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Locale } from "./locale";
import { translator, type Translate } from "./messages";

/** The page's language: its messages and the tag Intl formats dates, times and prices with. */
export interface I18n {
  locale: Locale;
  format: string;
  t: Translate;
}

export const english: I18n = { locale: "en", format: "en", t: translator("en") };

export const I18nContext = createContext<I18n>(english);

export const useI18n = () => useContext(I18nContext);
