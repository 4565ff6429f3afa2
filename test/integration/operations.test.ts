import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { completeDocument, createRouter, type DocumentSpec } from "../../src/http/openapi";
import { declarationOf, declarations, defineRoute, type Keys } from "../../src/http/operations";

// Each route declares its operationId and keys; the document is completed from those
// declarations and refuses a route that made none, or two routes with one operationId.

const spec: DocumentSpec = {
  title: "t",
  description: "d",
  version: "1",
  server: "/t",
  security: { ApiKey: [] },
  headers: { idempotency: false, cors: false, routed: () => false },
};

const ok = {
  200: { description: "ok", content: { "application/json": { schema: z.object({}) } } },
};

const declared = (operationId: string, path: string, keys: Keys = "secret") =>
  defineRoute({ operationId, keys, method: "get", path, responses: ok });

function documentOf(routes: ReturnType<typeof createRoute>[]) {
  const router = createRouter();
  for (const route of routes) router.openapi(route, (c) => c.json({}, 200));
  const doc = router.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
  return () => completeDocument(doc, spec, declarations(router.openAPIRegistry));
}

describe("operations declared by their routes", () => {
  it("writes each route's operationId after its responses, and security: [] where it takes no keys", () => {
    const doc = documentOf([
      declared("listThings", "/things"),
      declared("getFeed", "/feed", "none"),
    ])();
    const things = doc.paths?.["/things"]?.get;
    const feed = doc.paths?.["/feed"]?.get;
    expect(things?.operationId).toBe("listThings");
    // After the generated fields (the documents keep their order byte for byte).
    const fields = Object.keys(things ?? {});
    expect(fields.indexOf("operationId")).toBe(fields.indexOf("responses") + 1);
    expect(things?.security).toBeUndefined();
    expect(feed?.security).toEqual([]);
    // Neither declared field is copied into the document as a field of its own.
    expect(JSON.stringify(doc)).not.toContain('"keys"');
    expect(JSON.parse(JSON.stringify(things))).not.toHaveProperty("keys");
  });

  it("keeps the declaration on the route, under a symbol the registry copies", () => {
    const route = declared("listThings", "/things", "publishable");
    expect(declarationOf(route)).toEqual({ operationId: "listThings", keys: "publishable" });
    expect(Object.keys(route)).not.toContain("operationId");
    expect(Object.keys(route)).not.toContain("keys");
  });

  it("refuses a route made without a declaration", () => {
    const plain = createRoute({ method: "get", path: "/plain", responses: ok });
    expect(documentOf([declared("listThings", "/things"), plain])).toThrow(
      "GET /plain: made without defineRoute",
    );
  });

  it("refuses two operations with one operationId", () => {
    expect(
      documentOf([declared("listThings", "/things"), declared("listThings", "/others")]),
    ).toThrow("operationId listThings: GET /things and GET /others");
  });
});
