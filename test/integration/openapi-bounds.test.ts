import { beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE, MAX_PER_PAGE } from "../../src/platform/pagination";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, admin, type Client, PUBLIC, send } from "../helpers/http";

/**
 * Every bound the code enforces on a request is in the OpenAPI schema, so a
 * client's validator refuses what the API refuses: each named bound is read
 * from the document and tried at the edge (at the bound, then one past it);
 * and no request string or number of either document is left unbounded.
 */

type Json = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; parameters?: Record<string, Json> };
}
interface Operation {
  parameters?: ({ $ref: string } | { name: string; in: string; schema: Json })[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
}

const docs: Record<"public" | "admin", Doc> = {} as never;
let ws: TestWorkspace;
let api: Client;
let webhookId: number;
beforeAll(async () => {
  docs.public = (await send(`${PUBLIC}/openapi.json`)).body;
  docs.admin = (await send(`${ADMIN}/openapi.json`)).body;
  ws = await createWorkspace();
  api = ws.api;
  const hook = await api("/webhooks", {
    method: "POST",
    body: { url: "https://hooks.example.com/a", events: ["booking-created"] },
  });
  webhookId = hook.body.id;
});

const deref = (doc: Doc, schema: Json): Json =>
  typeof schema.$ref === "string"
    ? deref(doc, doc.components.schemas[schema.$ref.replace("#/components/schemas/", "")] ?? {})
    : schema;

function param(doc: Doc, path: string, method: string, name: string): Json {
  const op = doc.paths[path]?.[method];
  const found = op?.parameters?.find((p) => "name" in p && p.name === name);
  if (!found || !("schema" in found)) throw new Error(`no parameter ${name} on ${method} ${path}`);
  return found.schema;
}

function bodyField(doc: Doc, path: string, method: string, field: string): Json {
  const schema = doc.paths[path]?.[method]?.requestBody?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`no body on ${method} ${path}`);
  const props = deref(doc, schema).properties as Record<string, Json> | undefined;
  const found = props?.[field];
  if (!found) throw new Error(`no field ${field} on ${method} ${path}`);
  return deref(doc, found);
}

const webhook = (url: string) =>
  api("/webhooks", { method: "POST", body: { url, events: ["booking-created"] } });
const longUrl = (length: number) => {
  const base = "https://hooks.example.com/";
  return base + "a".repeat(length - base.length);
};

describe("bounds the code enforces are in the schema", () => {
  it.each([
    ["per_page", MAX_PER_PAGE],
    ["limit", MAX_PER_PAGE],
    ["page", MAX_PAGE],
  ])("%s: 1..%i in every list's document, and enforced at both ends", async (name, max) => {
    let lists = 0;
    for (const doc of [docs.public, docs.admin]) {
      for (const [path, item] of Object.entries(doc.paths)) {
        const op = item.get;
        if (!op?.parameters?.some((p) => "name" in p && p.name === name)) continue;
        lists += 1;
        expect(param(doc, path, "get", name), path).toMatchObject({
          type: "integer",
          minimum: 1,
          maximum: max,
        });
      }
    }
    expect(lists).toBeGreaterThan(10);
    expect((await api(`/locations?${name}=${max}`)).status).toBe(200);
    for (const past of ["0", String(max + 1), "99999999999999999999"]) {
      const res = await api(`/locations?${name}=${past}`);
      expect(res.status, `${name}=${past}`).toBe(422);
      expect(res.body.errors).toHaveProperty(name);
    }
  });

  it("webhook url: a uri of at most 2048 characters, http or https", async () => {
    for (const [path, method] of [
      ["/webhooks", "post"],
      ["/webhooks/{webhook_id}", "patch"],
    ] as const) {
      const url = bodyField(docs.public, path, method, "url");
      expect(url).toMatchObject({ type: "string", format: "uri", maxLength: 2048 });
      const scheme = new RegExp(String(url.pattern));
      for (const ok of ["https://a.example.com/x", "HTTP://a.example.com/"])
        expect(scheme.test(ok), ok).toBe(true);
      for (const bad of ["ftp://a.example.com/", "mailto:a@b.example", "//a.example.com"])
        expect(scheme.test(bad), bad).toBe(false);
    }
    expect((await webhook(longUrl(2048))).status).toBe(201);
    expect((await webhook("HTTPS://hooks.example.com/upper")).status).toBe(201);
    for (const bad of [longUrl(2049), "ftp://hooks.example.com/", "hooks.example.com/x"]) {
      const res = await webhook(bad);
      expect(res.status, bad.slice(0, 40)).toBe(422);
      expect(res.body.errors).toHaveProperty("url");
    }
  });

  it("webhook method: the five methods in any case", async () => {
    const method = bodyField(docs.public, "/webhooks", "post", "method");
    const pattern = new RegExp(String(method.pattern));
    for (const m of ["post", "PUT", "Patch", "get", "DELETE"])
      expect(pattern.test(m), m).toBe(true);
    for (const m of ["head", "posts", ""]) expect(pattern.test(m), m).toBe(false);
    const refused = await api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/m", events: ["booking-created"], method: "head" },
    });
    expect(refused.status).toBe(422);
  });

  it("webhook_id: 1 to 999999999999999", async () => {
    const schema = param(docs.public, "/webhooks/{webhook_id}", "get", "webhook_id");
    expect(schema).toMatchObject({ type: "integer", minimum: 1, maximum: 999_999_999_999_999 });
    expect((await api(`/webhooks/${webhookId}`)).status).toBe(200);
    expect((await api("/webhooks/999999999999999")).status).toBe(404);
    for (const bad of ["0", "1000000000000000"])
      expect((await api(`/webhooks/${bad}`)).status, bad).toBe(422);
  });

  it("timezone: at most 64 characters", async () => {
    const schema = param(docs.public, "/locations/{location_uuid}/time-slots", "get", "timezone");
    expect(schema).toMatchObject({ maxLength: 64 });
    const tooLong = `Europe/${"X".repeat(58)}`;
    const created = await admin(`/workspaces/${ws.id}/locations`, {
      method: "POST",
      body: { name: "Far", timezone: tooLong },
    });
    expect(created.status).toBe(422);
    expect(created.body.errors).toHaveProperty("timezone");
  });

  it("Idempotency-Key: 1 to 255 visible characters", async () => {
    const key = docs.public.components.parameters?.IdempotencyKey as { schema: Json };
    expect(key.schema).toMatchObject({ minLength: 1, maxLength: 255 });
    const body = { url: "https://hooks.example.com/idem", events: ["booking-created"] };
    const at = await api("/webhooks", {
      method: "POST",
      body,
      headers: { "idempotency-key": "k".repeat(255) },
    });
    expect(at.status).toBe(201);
    const past = await api("/webhooks", {
      method: "POST",
      body,
      headers: { "idempotency-key": "k".repeat(256) },
    });
    expect(past.status).toBe(422);
  });
});

describe.each(["public", "admin"] as const)("nothing unbounded in the %s document", (name) => {
  it("every request string has a length, an enum, a format or a pattern; every number both ends", () => {
    const doc = docs[name];
    const found: string[] = [];
    const walk = (schema: unknown, at: string, seen: Set<string>) => {
      if (!schema || typeof schema !== "object") return;
      const s = schema as Json;
      if (typeof s.$ref === "string") {
        const ref = s.$ref.replace("#/components/schemas/", "");
        if (!seen.has(ref)) walk(doc.components.schemas[ref], at, new Set([...seen, ref]));
        return;
      }
      const types = ([] as unknown[]).concat(s.type);
      const bounded = (k: string) => s[k] !== undefined;
      if (
        types.includes("string") &&
        !["maxLength", "enum", "format", "pattern", "anyOf", "const"].some(bounded)
      )
        found.push(`${at}: string`);
      if ((types.includes("integer") || types.includes("number")) && !bounded("enum"))
        if (!bounded("minimum") || !bounded("maximum")) found.push(`${at}: number`);
      if (s.items) walk(s.items, `${at}[]`, seen);
      for (const [key, value] of Object.entries((s.properties as Json) ?? {}))
        walk(value, `${at}.${key}`, seen);
      for (const c of ["allOf", "anyOf", "oneOf"])
        for (const [i, part] of ((s[c] as unknown[]) ?? []).entries())
          walk(part, `${at}|${i}`, seen);
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        for (const media of Object.values(op.requestBody?.content ?? {}))
          walk(media.schema, `${where} body`, new Set());
        for (const p of op.parameters ?? []) {
          // Header parameters are the browser's or the client's own (Origin, X-Request-Id).
          if ("name" in p && p.in !== "header")
            walk(p.schema, `${where} ${p.in}.${p.name}`, new Set());
        }
      }
    }
    expect(found).toEqual([]);
  });
});
