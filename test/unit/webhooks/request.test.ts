import { describe, expect, it } from "vitest";
import {
  deliveryUrl,
  HEADER_VALUE,
  headersProblem,
  MAX_DELIVERY_URL,
} from "../../../src/webhooks/rules/request";

describe("webhook request rules", () => {
  it.each([
    ["plain token", "Bearer abc.def", true],
    ["spaces and tabs", "a b\tc", true],
    ["Latin-1", "Grüße à bientôt ÿ", true],
    ["empty", "", true],
    ["CR LF", "a\r\nX-Injected: 1", false],
    ["LF", "a\nb", false],
    ["CR", "a\rb", false],
    ["NUL", "a\u0000b", false],
    ["ESC", "a\u001bb", false],
    ["DEL", "a\u007fb", false],
    ["euro sign", "5 €", false],
    ["emoji", "🙂", false],
  ])("header value with %s is sendable: %s", (_, value, ok) => {
    expect(HEADER_VALUE.test(value)).toBe(ok);
    expect(headersProblem([{ name: "X-Test", value }]) === null).toBe(ok);
  });

  it("names the header that cannot be sent", () => {
    expect(
      headersProblem([
        { name: "X-Ok", value: "ok" },
        { name: "X-Bad", value: "\n" },
      ]),
    ).toBe("header X-Bad has a value that cannot be sent");
    expect(headersProblem([{ name: "bad name", value: "ok" }])).toMatch(/not valid/);
  });

  it("appends parameters to the URL's own query, percent-encoded", () => {
    const url = deliveryUrl("https://r.example.com/h?a=1", [
      { name: "b", value: "x&y=z" },
      { name: "c", value: "ä" },
    ]);
    expect(url.href).toBe("https://r.example.com/h?a=1&b=x%26y%3Dz&c=%C3%A4");
    expect(MAX_DELIVERY_URL).toBe(8192);
  });
});
