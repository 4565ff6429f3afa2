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

  it("serves an interactive docs page", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(new Request("http://api.test/docs"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain(`${PUBLIC}/openapi.json`);
  });
});
