import { describe, expect, it } from "vitest";
import { createWorkspace } from "../helpers/factory";
import { ADMIN, admin, PUBLIC, send } from "../helpers/http";
import { everyShard } from "../helpers/every-shard";

describe("one error model for every failure", () => {
  it("unknown routes are 404 JSON", async () => {
    const ws = await createWorkspace();
    const res = await ws.api("/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: "No route matches GET /api/public/v2/no-such-thing.",
      code: "route_not_found",
    });
    const outside = await send("/nowhere");
    expect(outside.status).toBe(404);
    expect(outside.body.code).toBe("route_not_found");
  });

  it("malformed JSON is a 400 with a clear message, never a 500", async () => {
    const res = await admin("/workspaces", {
      method: "POST",
      rawBody: '{"name": "x",',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "The request body is not valid JSON.",
      code: "invalid_json",
    });
  });

  it("a body that is not JSON is a 415", async () => {
    const res = await admin("/workspaces", {
      method: "POST",
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe("unsupported_media_type");
  });

  it("validation failures are 422 with field errors", async () => {
    const res = await admin("/workspaces", {
      method: "POST",
      body: { name: "", country: "XX", currency: "EURO", timezone: "Mars/Olympus" },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors).sort()).toEqual([
      "country",
      "currency",
      "name",
      "timezone",
    ]);
    const missing = await admin("/workspaces", { method: "POST", body: {} });
    expect(missing.body.errors.name).toEqual(["This field is required."]);
  });

  it("a body over the size limit is a 413", async () => {
    const res = await admin("/workspaces", {
      method: "POST",
      body: { name: "x".repeat(300 * 1024), country: "DE", currency: "EUR", timezone: "UTC" },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("the management API refuses a missing or wrong admin token", async () => {
    const none = await send(`${ADMIN}/workspaces`, { method: "POST", body: {} });
    expect(none.status).toBe(401);
    const wrong = await send(`${ADMIN}/workspaces`, {
      method: "POST",
      body: {},
      headers: { authorization: "Bearer not-the-token" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe("unauthenticated");
  });

  it("an unexpected failure is a 500 with a request id and no stack", async () => {
    const ws = await createWorkspace();
    // Break the database under the running worker: the route's query now fails.
    await everyShard.exec("ALTER TABLE locations RENAME TO locations_gone");
    try {
      const res = await send(`${PUBLIC}/locations`, {
        headers: {
          authorization: `Bearer ${ws.apiKey}`,
          workspace: ws.id,
          "x-request-id": "req-test-12345",
        },
      });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({
        message: "Something went wrong on our side. Quote the request id when reporting it.",
        code: "internal_error",
        request_id: "req-test-12345",
      });
      expect(res.headers.get("x-request-id")).toBe("req-test-12345");
    } finally {
      await everyShard.exec("ALTER TABLE locations_gone RENAME TO locations");
    }
  });

  it("every response reports D1 time and round trips in Server-Timing", async () => {
    const ws = await createWorkspace();
    const res = await ws.api("/locations");
    expect(res.headers.get("server-timing")).toMatch(/d1;dur=[\d.]+;desc="2 round trips"/);
    expect(res.headers.get("server-timing")).toMatch(/total;dur=/);
  });
});
