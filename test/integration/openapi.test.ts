import { describe, expect, it } from "vitest";
import { ADMIN, PUBLIC, send } from "../helpers/http";

describe("OpenAPI documents and docs page", () => {
  it("serves the public API document without credentials", async () => {
    const res = await send(`${PUBLIC}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(["/locations", "/staffers"]),
    );
    expect(res.body.components.securitySchemes).toMatchObject({
      ApiKey: { type: "http", scheme: "bearer" },
      Workspace: { type: "apiKey", in: "header", name: "Workspace" },
    });
    // Generated from the validating schemas: the pagination rule is in the document.
    const params = res.body.paths["/locations"].get.parameters;
    expect(params).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "per_page", in: "query" })]),
    );
    expect(res.body.components.schemas.Error.properties).toHaveProperty("code");
  });

  it("serves the management API document", async () => {
    const res = await send(`${ADMIN}/openapi.json`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        "/workspaces",
        "/workspaces/{ws}/locations",
        "/workspaces/{ws}/staffers",
      ]),
    );
  });

  it.each([
    ["public", PUBLIC],
    ["management", ADMIN],
  ])("bounds every request array of the %s document with maxItems", async (_, prefix) => {
    const doc = (await send(`${prefix}/openapi.json`)).body;
    const unbounded = requestArraysWithoutMaxItems(doc);
    expect(unbounded).toEqual([]);
  });

  it("serves an interactive docs page", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(new Request("http://api.test/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain(`${PUBLIC}/openapi.json`);
  });
});

type Schema = Record<string, unknown>;

/**
 * Every array reachable from a request (body, query, path, header) of the document, by the
 * path that leads to it, that has no `maxItems`. Refs are followed once per walk.
 */
function requestArraysWithoutMaxItems(doc: {
  paths: Record<string, Record<string, Schema>>;
  components?: { schemas?: Record<string, Schema> };
}): string[] {
  const found: string[] = [];
  const walk = (schema: unknown, at: string, seen: Set<string>) => {
    if (!schema || typeof schema !== "object") return;
    const s = schema as Schema;
    if (typeof s.$ref === "string") {
      const name = s.$ref.replace("#/components/schemas/", "");
      if (seen.has(name)) return;
      walk(doc.components?.schemas?.[name], `${at}<${name}>`, new Set([...seen, name]));
      return;
    }
    const type = s.type;
    if (type === "array" || (Array.isArray(type) && type.includes("array")) || "items" in s) {
      if (typeof s.maxItems !== "number") found.push(at);
      walk(s.items, `${at}[]`, seen);
    }
    for (const [key, value] of Object.entries((s.properties as Record<string, unknown>) ?? {}))
      walk(value, `${at}.${key}`, seen);
    if (typeof s.additionalProperties === "object") walk(s.additionalProperties, `${at}.*`, seen);
    for (const combinator of ["allOf", "anyOf", "oneOf"] as const) {
      const parts = s[combinator];
      if (Array.isArray(parts)) parts.forEach((p, i) => walk(p, `${at}|${combinator}${i}`, seen));
    }
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const operation = op as {
        requestBody?: { content?: Record<string, { schema?: unknown }> };
        parameters?: { name: string; in: string; schema?: unknown }[];
      };
      const where = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {}))
        walk(media.schema, `${where} body(${type})`, new Set());
      for (const p of operation.parameters ?? [])
        walk(p.schema, `${where} ${p.in}.${p.name}`, new Set());
    }
  }
  return found;
}
