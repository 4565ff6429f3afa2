import { describe, expect, it } from "vitest";
import { chooseLocale, supported } from "../../widget/i18n/locale";

describe("widget language choice", () => {
  it("takes the lang parameter when the widget speaks it, whatever the browser says", () => {
    expect(chooseLocale("de", ["en-US", "en"])).toEqual({ locale: "de", format: "de" });
    expect(chooseLocale("fr", ["fr-CA", "en"])).toEqual({ locale: "fr", format: "fr-CA" });
    expect(chooseLocale("ES", [])).toEqual({ locale: "es", format: "es" });
    expect(chooseLocale("de-AT", [])).toMatchObject({ locale: "de" });
  });

  it("else the first of the browser's languages it speaks, by base language", () => {
    expect(chooseLocale(null, ["de-AT", "en"])).toEqual({ locale: "de", format: "de-AT" });
    expect(chooseLocale(null, ["fr-FR"])).toEqual({ locale: "fr", format: "fr-FR" });
    // Italian and Dutch are not spoken: the first language after them that is.
    expect(chooseLocale(null, ["it-IT", "nl", "es-MX", "de"])).toEqual({
      locale: "es",
      format: "es-MX",
    });
    expect(chooseLocale(null, ["en-GB", "de"])).toEqual({ locale: "en", format: "en-GB" });
  });

  it("an unknown or empty lang parameter falls back to the browser", () => {
    expect(chooseLocale("it", ["fr-BE"])).toMatchObject({ locale: "fr" });
    expect(chooseLocale("", ["es"])).toMatchObject({ locale: "es" });
    expect(chooseLocale("<script>", ["de-CH"])).toMatchObject({ locale: "de" });
  });

  it("else English", () => {
    expect(chooseLocale(null, [])).toEqual({ locale: "en", format: "en" });
    expect(chooseLocale("pt", ["pt-BR", "ja"])).toEqual({ locale: "en", format: "en" });
    expect(chooseLocale("xx", ["zz"])).toEqual({ locale: "en", format: "en" });
  });

  it("formats with the first browser variant of the chosen language that Intl accepts", () => {
    // A malformed tag is never handed to Intl (it would throw a RangeError in the page).
    expect(chooseLocale(null, ["de-", "de-DE"])).toEqual({ locale: "de", format: "de-DE" });
    expect(chooseLocale("de", ["fr", "de-CH"])).toEqual({ locale: "de", format: "de-CH" });
  });

  it("reads base languages with either separator and any case", () => {
    expect(supported("DE_at")).toBe("de");
    expect(supported("en")).toBe("en");
    expect(supported("english")).toBeNull();
    expect(supported(null)).toBeNull();
  });
});
