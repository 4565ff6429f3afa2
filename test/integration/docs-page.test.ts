import { describe, expect, it } from "vitest";

// The browser test (test/browser/docs.test.ts) renders the page with the outside blocked;
// this one pins the HTML itself: every script and style it names is the Worker's own.
describe("/docs page", () => {
  it("names no other host and offers both API documents", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(new Request("http://api.test/docs"));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/jsdelivr|unpkg|fonts\.scalar|cdn\./i);
    expect(html).toContain('<script src="/docs/scalar.js"></script>');
    expect(html).toContain("/api/public/v2/openapi.json");
    expect(html).toContain("/api/admin/v1/openapi.json");
    expect(html).toContain('"withDefaultFonts": false');
    expect(html).toContain('"telemetry": false');
  });

  it('declares its language: <html lang="en">', async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(new Request("http://api.test/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^\s*<!doctype html>\s*<html lang="en">/i);
    expect(html.match(/<html[\s>]/gi)).toHaveLength(1);
  });
});
