import { describe, expect, it } from "vitest";
import { linkFreeName, MAX_PUBLIC_NAME } from "../../../src/messages/rules";

describe("a stranger's first name in a message: only when it cannot read as a link", () => {
  it.each([
    "Ada",
    "Anne-Marie",
    "O'Brien",
    "D’Angelo",
    "Zoë",
    "José María",
    "Łukasz",
    "Ἀθηνᾶ",
    "Мария",
    "佐藤",
    "محمد",
    "अनुष्का",
  ])("keeps %s", (name) => {
    expect(linkFreeName(name)).toBe(name.normalize("NFKC"));
  });

  it.each([
    "evil.example",
    "bit.ly/x",
    "bit.ly",
    "http://",
    "https://evil",
    "evil://x",
    "xn--80ak6aa92e",
    "Ann xn--p1ai",
    "www",
    "wwwevilcom",
    "evil．example", // full-width full stop (folds to ".")
    "evil。example", // ideographic full stop
    "evil｡example", // half-width ideographic full stop
    "evil․example", // one dot leader (folds to ".")
    "evil·example",
    "ｅｖｉｌ.ｃｏｍ",
    "a@b",
    "ada@example.org",
    "Call 0151 1234567",
    "R2D2",
    "Ann  Lee",
    "-Ann",
    "Ann-",
    "one two three four",
    "\u202Eevil",
    "evil\u200Bexample",
    "",
    "   ",
  ])("refuses %j", (name) => {
    expect(linkFreeName(name)).toBeNull();
  });

  it(`bounds its length: ${MAX_PUBLIC_NAME} letters kept, ${MAX_PUBLIC_NAME + 1} and the field's 100 not`, () => {
    expect(linkFreeName("A".repeat(MAX_PUBLIC_NAME))).toBe("A".repeat(MAX_PUBLIC_NAME));
    expect(linkFreeName("A".repeat(MAX_PUBLIC_NAME + 1))).toBeNull();
    expect(linkFreeName("A".repeat(100))).toBeNull();
  });
});
