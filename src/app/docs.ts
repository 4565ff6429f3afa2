import { Scalar } from "@scalar/hono-api-reference";
import type { Context } from "hono";
import { ADMIN_BASE, PUBLIC_BASE } from "../http/api-paths";

/** Scalar's browser bundle, copied into the static assets by scripts/build-assets.mjs. */
const DOCS_SCRIPT = "/docs/scalar.js";

const reference = Scalar({
  pageTitle: "Scheduling API reference",
  // Served from the Worker's static assets (scripts/build-assets.mjs): the page needs no internet.
  cdn: DOCS_SCRIPT,
  // Nothing that calls Scalar's servers: no web fonts, telemetry, AI agent or MCP generator.
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  sources: [
    { url: `${PUBLIC_BASE}/openapi.json`, title: "Public API v2" },
    { url: `${ADMIN_BASE}/openapi.json`, title: "Management API v1" },
  ],
});

/**
 * `GET /docs`: the API reference page. Scalar writes a bare `<html>`; the page is in English,
 * and says so (screen readers pick their voice from it, WCAG 3.1.1), so the tag gets its `lang`.
 */
export async function docsPage(c: Context) {
  const page = await reference(c, async () => undefined);
  if (!page) throw new Error("the API reference rendered nothing");
  const html = (await page.text()).replace(/<html(?=[\s>])(?![^>]*\slang=)/i, '<html lang="en"');
  return c.html(html);
}
