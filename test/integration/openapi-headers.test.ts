import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { fakeLimiter } from "../helpers/limiter";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * The OpenAPI documents declare every header the API reads and sends, on the
 * operations where it applies, and every bound the code enforces.
 */

type Json = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { headers?: Json; parameters?: Record<string, Json>; schemas?: Json };
}
interface Operation {
  security?: unknown[];
  parameters?: ({ $ref: string } | { name: string; in: string; schema?: Json })[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses: Record<string, { headers?: Record<string, { $ref?: string }> }>;
}

const docs: Record<"public" | "admin", Doc> = {} as never;
let salon: Salon;
beforeAll(async () => {
  docs.public = (await send(`${PUBLIC}/openapi.json`)).body;
  docs.admin = (await send(`${ADMIN}/openapi.json`)).body;
  salon = await createSalon(1);
});

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

/** Parameter components an operation names, by their `name`, with inline parameters. */
function parameters(doc: Doc, op: Operation) {
  return (op.parameters ?? []).map((p) => {
    if ("$ref" in p) {
      const found = doc.components.parameters?.[p.$ref.replace("#/components/parameters/", "")];
      if (!found) throw new Error(`dangling ${p.$ref}`);
      return found as { name: string; in: string; schema?: Json };
    }
    return p;
  });
}

const headerNames = (doc: Doc, op: Operation, status: string) => {
  const headers = op.responses[status]?.headers ?? {};
  for (const value of Object.values(headers)) {
    if (value.$ref)
      expect(doc.components.headers, value.$ref).toHaveProperty(
        value.$ref.replace("#/components/headers/", ""),
      );
  }
  return Object.keys(headers).map((h) => h.toLowerCase());
};

const credentialed = (op: Operation) => !(Array.isArray(op.security) && op.security.length === 0);

describe.each(["public", "admin"] as const)("headers in the %s document", (name) => {
  it("every operation reads X-Request-Id and answers X-Request-Id and Server-Timing", () => {
    for (const { path, method, op } of operations(docs[name])) {
      const where = `${method} ${path}`;
      const names = parameters(docs[name], op).map((p) => `${p.in}:${p.name}`);
      expect(names, where).toContain("header:X-Request-Id");
      for (const status of Object.keys(op.responses)) {
        expect(headerNames(docs[name], op, status), `${where} ${status}`).toEqual(
          expect.arrayContaining(["x-request-id", "server-timing"]),
        );
      }
    }
  });

  it("every 429 and 503 answers Retry-After", () => {
    for (const { path, method, op } of operations(docs[name])) {
      for (const status of Object.keys(op.responses).filter((s) => s === "429" || s === "503"))
        expect(headerNames(docs[name], op, status), `${method} ${path}`).toContain("retry-after");
    }
  });

  it("Idempotency-Key on exactly the writes that honour it, Idempotent-Replayed on their answers", () => {
    for (const { path, method, op } of operations(docs[name])) {
      const where = `${method} ${path}`;
      const honours =
        name === "public" && credentialed(op) && ["post", "put", "patch"].includes(method);
      const names = parameters(docs[name], op).map((p) => p.name);
      expect(names.includes("Idempotency-Key"), where).toBe(honours);
      for (const status of Object.keys(op.responses)) {
        const replayed = headerNames(docs[name], op, status).includes("idempotent-replayed");
        expect(replayed, `${where} ${status}`).toBe(honours && Number(status) < 500);
      }
      if (honours && op.responses["409"])
        expect(headerNames(docs[name], op, "409"), where).toContain("retry-after");
    }
  });

  it("CORS headers: Vary on every public answer, the origin's on operations behind an API key", () => {
    for (const { path, method, op } of operations(docs[name])) {
      const cors = name === "public" && credentialed(op);
      const names = parameters(docs[name], op).map((p) => p.name);
      expect(names.includes("Origin"), `${method} ${path}`).toBe(cors);
      for (const status of Object.keys(op.responses)) {
        const headers = headerNames(docs[name], op, status);
        expect(headers.includes("vary"), `${method} ${path} ${status}`).toBe(name === "public");
        for (const h of ["access-control-allow-origin", "access-control-expose-headers"])
          expect(headers.includes(h), `${method} ${path} ${status} ${h}`).toBe(cors);
      }
    }
  });
});

/** Headers every answer may carry that the document covers otherwise (the body's media type). */
const BODY_HEADERS = new Set(["content-type", "content-length"]);

/** Every header a real answer carries is declared on its operation and status. */
function expectDeclared(
  name: "public" | "admin",
  path: string,
  method: string,
  res: { status: number; headers: Headers },
) {
  const op = docs[name].paths[path]?.[method];
  if (!op) throw new Error(`no operation ${method} ${path}`);
  const declared = headerNames(docs[name], op, String(res.status));
  const sent = [...res.headers.keys()].filter((h) => !BODY_HEADERS.has(h));
  expect(sent.length).toBeGreaterThan(0);
  expect(
    sent.filter((h) => !declared.includes(h)),
    `${method} ${path} ${res.status}`,
  ).toEqual([]);
}

describe("the headers real answers carry are the declared ones", () => {
  it("a list, a write, its replay", async () => {
    expectDeclared("public", "/locations", "get", await salon.ws.api("/locations"));
    const body = {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("10:00"),
      ...customer(),
    };
    const headers = { "idempotency-key": `hdr-${crypto.randomUUID()}` };
    const first = await salon.ws.api("/bookings", { method: "POST", body, headers });
    expect(first.status).toBe(201);
    expectDeclared("public", "/bookings", "post", first);
    const replay = await salon.ws.api("/bookings", { method: "POST", body, headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expectDeclared("public", "/bookings", "post", replay);
  });

  it("a publishable key's page (CORS) and a download", async () => {
    const pk = await createPublishableKey(salon.ws, ["https://salon.example"]);
    const res = await pk.api("/services", { headers: { origin: "https://salon.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://salon.example");
    expectDeclared("public", "/services", "get", res);

    const booked = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        reserved_on: at("12:00"),
        ...customer(),
      },
    });
    const { link: ical_link } = booked.body.links.find((l: { type: string }) => l.type === "ical");
    const link = new URL(ical_link);
    const ical = await fetchRaw(`${link.pathname}${link.search}`);
    expect(ical.status).toBe(200);
    expect(ical.headers.get("content-disposition")).toMatch(/attachment/);
    expectDeclared("public", "/bookings/{booking_uuid}/ical", "get", ical);
  });

  it("a rate-limited answer (Retry-After)", async () => {
    const app = createApp();
    const perKey = fakeLimiter(0);
    const res = await app.request(
      `${PUBLIC}/locations`,
      { headers: { authorization: `Bearer ${salon.ws.apiKey}`, workspace: salon.ws.id } },
      { ...env, API_RATE_LIMIT: perKey.limiter },
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("10");
    expectDeclared("public", "/locations", "get", res);
  });

  it("the management API", async () => {
    const ws: TestWorkspace = await createWorkspace();
    const res = await admin(`/workspaces/${ws.id}/resources`);
    expect(res.status).toBe(200);
    expectDeclared("admin", "/workspaces/{ws}/resources", "get", res);
  });
});

async function fetchRaw(path: string) {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(new Request(`http://api.test${path}`));
}
