import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  NotificationSettingsSchema,
  renderTemplate,
  scanTemplate,
  unknownVariables,
  VARIABLES,
} from "../../../src/messages/rules";

/** The pattern the scanner replaced, kept here as the oracle of what a placeholder is. */
const ORACLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const oracleNames = (text: string) => [...text.matchAll(ORACLE)].map((m) => m[1] ?? "");
const oracleUnknown = (text: string) => {
  const unknown = oracleNames(text).filter((n) => !Object.hasOwn(VARIABLES, n));
  if (text.replace(ORACLE, "").includes("{{")) unknown.push("{{");
  return [...new Set(unknown)];
};

const names = (text: string) =>
  scanTemplate(text).parts.flatMap((p) => ("name" in p ? [p.name] : []));

/** Texts made of what placeholders are made of: braces, white space, names. */
const templateText = fc
  .array(
    fc.constantFrom(
      "{",
      "}",
      "{{",
      "}}",
      " ",
      "\n",
      "\t",
      "date",
      "time",
      "x",
      "customer_first_name",
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

describe("template placeholders: a linear scanner", () => {
  it("finds the placeholders the old pattern found, and refuses what it refused", () => {
    fc.assert(
      fc.property(templateText, (text) => {
        expect(names(text)).toEqual(oracleNames(text));
        expect(unknownVariables(text)).toEqual(oracleUnknown(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("renders the text around placeholders as written, each placeholder by its value", () => {
    fc.assert(
      fc.property(templateText, (text) => {
        fc.pre(unknownVariables(text).length === 0);
        const values = Object.fromEntries(
          Object.keys(VARIABLES).map((k) => [k, `<${k}>`]),
        ) as Parameters<typeof renderTemplate>[1];
        const expected = text.replace(ORACLE, (_, n: string) => values[n as keyof typeof values]);
        expect(renderTemplate(text, values)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it("looks at each character a bounded number of times, whatever the text (`{{ ` repeated, 6,000 characters)", () => {
    for (const unit of ["{{ ", "{{", "{{  ", "{{ x ", "{ { ", "{{ }", "{{{ "]) {
      for (const length of [1_500, 3_000, 6_000]) {
        const text = unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
        const { steps } = scanTemplate(text);
        expect(steps, `${JSON.stringify(unit)} × ${length}`).toBeLessThanOrEqual(3 * text.length);
      }
    }
    // The audit's case: one `{{` and a run of spaces (the old pattern took 8 s at 1,500 characters).
    for (const length of [1_500, 6_000]) {
      const text = `{{${" ".repeat(length)}`;
      expect(scanTemplate(text).steps).toBeLessThanOrEqual(3 * text.length);
      expect(unknownVariables(text)).toEqual(["{{"]);
    }
    fc.assert(
      fc.property(templateText, (text) => {
        expect(scanTemplate(text).steps).toBeLessThanOrEqual(3 * text.length);
      }),
    );
  });

  it("a template over its length is refused on its length alone, never scanned", () => {
    const body = "{{ ".repeat(2_000);
    const parsed = NotificationSettingsSchema.safeParse({
      email: { enabled: true, from_name: "", from_email: "" },
      sms: { enabled: false },
      reminders: [],
      templates: { "booking-reminder": { en: { body } } },
    });
    expect(parsed.success).toBe(false);
    const messages = parsed.error?.issues.map((i) => i.message) ?? [];
    expect(messages.some((m) => /5000/.test(m))).toBe(true);
    expect(messages.some((m) => /Unknown template variable/.test(m))).toBe(false);
  });
});
