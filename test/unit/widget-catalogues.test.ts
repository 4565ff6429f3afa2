import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { en } from "../../widget/i18n/en";
import { LOCALES } from "../../widget/i18n/locale";
import { CATALOGUES, fill, translator } from "../../widget/i18n/messages";

const keys = Object.keys(en).sort();
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("widget message catalogues", () => {
  it.each(LOCALES)("%s has every key, no other, and no empty value", (locale) => {
    const catalogue: Record<string, string> = CATALOGUES[locale];
    expect(Object.keys(catalogue).sort()).toEqual(keys);
    for (const key of keys) expect(catalogue[key]?.trim(), `${locale} ${key}`).toBeTruthy();
  });

  it.each(LOCALES)("%s fills the same values as English", (locale) => {
    const catalogue: Record<string, string> = CATALOGUES[locale];
    for (const key of keys)
      expect(placeholders(catalogue[key] ?? ""), `${locale} ${key}`).toEqual(
        placeholders(en[key as keyof typeof en]),
      );
  });

  it.each(["de", "fr", "es"] as const)("%s leaves no English sentence untranslated", (locale) => {
    const catalogue: Record<string, string> = CATALOGUES[locale];
    // Words that are the same in both languages (a mark, "Date", "E-mail", "Comment" in
    // French…) are short; a whole sentence left in English is a missed translation.
    const same = keys.filter((k) => catalogue[k] === en[k as keyof typeof en]);
    for (const key of same)
      expect(en[key as keyof typeof en].split(" ").length, key).toBeLessThan(3);
  });

  it("fills values and leaves an unknown name visible", () => {
    expect(translator("de")("services.from_price", { price: "35,00 €" })).toBe("ab 35,00 €");
    expect(fill("{a} and {b}", { a: "x" })).toBe("x and {b}");
  });

  it("every key the widget's source names exists (no English typed straight into a page)", () => {
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.tsx?$/.test(entry.name) && !path.includes("i18n"))
          for (const m of readFileSync(path, "utf8").matchAll(
            /"((?:common|error|slot|services|staffer|choice|details|done|manage|page|pay)\.[a-z_]+)"/g,
          ))
            used.add(m[1] ?? "");
      }
    };
    walk("widget");
    expect(used.size).toBeGreaterThan(40);
    for (const key of used) expect(keys, key).toContain(key);
  });
});
