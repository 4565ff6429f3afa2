import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAllowedOrigin, normaliseOrigin } from "../../src/platform/rules/origins";

describe("normaliseOrigin", () => {
  it("keeps scheme, host and a non-default port, lower case, without a trailing slash", () => {
    expect(normaliseOrigin("https://salon.example")).toBe("https://salon.example");
    expect(normaliseOrigin("https://salon.example/")).toBe("https://salon.example");
    expect(normaliseOrigin("HTTPS://Salon.Example:443")).toBe("https://salon.example");
    expect(normaliseOrigin("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787");
    expect(normaliseOrigin(" https://a.example:8443/ ")).toBe("https://a.example:8443");
  });

  it("refuses what is not an origin instead of cutting it down", () => {
    for (const bad of [
      "salon.example",
      "https://salon.example/book",
      "https://salon.example?x=1",
      "https://salon.example#top",
      "https://user:pw@salon.example",
      "ftp://salon.example",
      "null",
      "",
      "https://salon.example//",
    ]) {
      expect(normaliseOrigin(bad), bad).toBeNull();
    }
  });

  it("is idempotent, and an origin is allowed exactly when its normal form is listed", () => {
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const normal = normaliseOrigin(url);
        if (normal === null) return;
        expect(normaliseOrigin(normal)).toBe(normal);
        expect(isAllowedOrigin(url, [normal])).toBe(true);
        expect(isAllowedOrigin(url, [])).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), (url) => {
        const normal = normaliseOrigin(url);
        if (new URL(url).search) expect(normal).toBeNull();
      }),
    );
  });
});
