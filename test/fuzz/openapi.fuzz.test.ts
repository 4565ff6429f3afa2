import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_TOKEN, PUBLIC, type Received, send } from "../helpers/http";
import { at, customer } from "../helpers/salon";
import { createShop, type Shop } from "../helpers/shop";

/**
 * Drives every operation of both served OpenAPI documents with generated
 * invalid and random valid input. Fails on any 5xx, on an error body that
 * breaks DESIGN §5, and on any row a rejected request leaves behind.
 * FUZZ_RUNS (default 2 in `npm test`, more with `npm run fuzz`) scales it.
 */
const RUNS = Number(env.FUZZ_RUNS ?? "2");
/** fast-check supplies the randomness, so a failure reports a replayable seed. */
const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
interface Operation {
  api: "public" | "admin";
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema?: Schema }[];
  body: Schema | null;
}
interface Doc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation["params"];
        requestBody?: { content: Record<string, { schema: Schema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
}

let shop: Shop;
let foreign: Shop;
let ids: Record<string, string>;
let operations: Operation[];
let docs: Record<"public" | "admin", Doc>;

const call = (
  api: "public" | "admin",
  path: string,
  init: { method: string; body?: string; type?: string; query?: string },
) =>
  send(`${api === "public" ? PUBLIC : ADMIN}${path}${init.query ? `?${init.query}` : ""}`, {
    method: init.method,
    rawBody: init.body,
    headers: {
      ...(init.body !== undefined ? { "content-type": init.type ?? "application/json" } : {}),
      ...(api === "public"
        ? { authorization: `Bearer ${shop.ws.apiKey}`, workspace: shop.ws.id }
        : { authorization: `Bearer ${ADMIN_TOKEN}` }),
    },
  });

beforeAll(async () => {
  shop = await createShop();
  foreign = await createShop();
  const booking = await shop.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      service_uuid: shop.cut.uuid,
      reserved_on: at("10:00", "2030-03-07"),
      ...customer(),
    },
  });
  const order = await shop.ws.api("/orders", {
    method: "POST",
    body: {
      location_uuid: shop.location.uuid,
      staffer_uuid: shop.seller.uuid,
      goods: [{ good_uuid: shop.shampoo.uuid, price: 1, quantity: 1 }],
    },
  });
  const hook = await shop.ws.api("/webhooks", {
    method: "POST",
    body: { url: "https://example.com/h", events: ["order-paid"] },
  });
  ids = {
    ws: shop.ws.id,
    location_uuid: shop.location.uuid,
    staffer_uuid: shop.seller.uuid,
    service_uuid: shop.cut.uuid,
    good_uuid: shop.shampoo.uuid,
    booking_uuid: booking.body.uuid,
    order_uuid: order.body.uuid,
    account_uuid: shop.cash.uuid,
    voucher_template_uuid: shop.giftCard.uuid,
    webhook_id: String(hook.body.id),
    uuid: shop.location.uuid,
  };
  docs = {
    public: (await call("public", "/openapi.json", { method: "GET" })).body,
    admin: (await call("admin", "/openapi.json", { method: "GET" })).body,
  };
  operations = [];
  for (const api of ["public", "admin"] as const)
    for (const [path, methods] of Object.entries(docs[api].paths))
      for (const [method, op] of Object.entries(methods)) {
        if (path.endsWith("/openapi.json") || path.endsWith("/ical")) continue;
        operations.push({
          api,
          method: method.toUpperCase(),
          path,
          params: op.parameters ?? [],
          body: op.requestBody?.content["application/json"]?.schema ?? null,
        });
      }
});

function resolve(api: "public" | "admin", s: Schema): Schema {
  if (s.$ref)
    return resolve(api, docs[api].components?.schemas?.[s.$ref.split("/").pop() ?? ""] ?? {});
  if (s.allOf) return Object.assign({}, ...s.allOf.map((x) => resolve(api, x)));
  return s;
}

/** A value of the schema's type with random content, using real ids for id-named fields. */
function sample(api: "public" | "admin", schema: Schema, name: string, r: () => number): unknown {
  const s = resolve(api, schema);
  const variants = s.anyOf ?? s.oneOf;
  if (variants) return sample(api, variants[Math.floor(r() * variants.length)] ?? {}, name, r);
  if (s.enum) return s.enum[Math.floor(r() * s.enum.length)];
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (ids[name] && type !== "array") return type === "integer" ? Number(ids[name]) : ids[name];
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {}))
        if (s.required?.includes(k) || r() < 0.5) out[k] = sample(api, v, k, r);
      return out;
    }
    case "array":
      return s.items ? [sample(api, s.items, name.replace(/s$/, "_uuid"), r)] : [];
    case "integer":
    case "number": {
      const lo = s.minimum ?? 0;
      const hi = Math.min(s.maximum ?? lo + 1000, lo + 100_000);
      return lo + Math.floor(r() * (hi - lo + 1));
    }
    case "boolean":
      return r() < 0.5;
    default:
      if (s.format === "uuid" || name.endsWith("uuid")) return crypto.randomUUID();
      if (s.format === "date-time" || name.includes("_at") || name.includes("reserved_on"))
        return "2030-03-04T10:00:00Z";
      return "x".repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** Ways to break a valid body: each yields a raw body and content type. */
function mutations(
  api: "public" | "admin",
  op: Operation,
  base: Record<string, unknown>,
  r: () => number,
) {
  const schema = op.body ? resolve(api, op.body) : {};
  const fields = Object.keys(schema.properties ?? {});
  const pick = () => fields[Math.floor(r() * fields.length)] ?? "x";
  const json = (v: unknown) => ({ body: JSON.stringify(v), type: "application/json" });
  const req = schema.required ?? [];
  return [
    json(base),
    ...(req.length
      ? [
          json(
            Object.fromEntries(
              Object.entries(base).filter(([k]) => k !== req[Math.floor(r() * req.length)]),
            ),
          ),
        ]
      : []),
    json({ ...base, [pick()]: { nested: [1, 2] } }),
    json({ ...base, [pick()]: -(10 ** 15) }),
    json({ ...base, [pick()]: "z".repeat(20_000) }),
    json({ ...base, [pick()]: Array.from({ length: 2000 }, (_, i) => i) }),
    json({ ...base, [pick()]: "__not_an_enum__" }),
    json({ ...base, [pick()]: null }),
    json({ ...base, [pick()]: foreign.location.uuid }),
    json([base]),
    json("text"),
    { body: '{"broken": ', type: "application/json" },
    { body: "a=1&b=2", type: "application/x-www-form-urlencoded" },
  ];
}

function pathFor(op: Operation, mode: "real" | "foreign" | "garbage" | "huge") {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (mode === "garbage") return "not-an-id";
    if (mode === "huge") return "9".repeat(400);
    if (mode === "foreign")
      return name === "webhook_id"
        ? "999999"
        : name === "ws"
          ? crypto.randomUUID()
          : foreign.location.uuid;
    return ids[name] ?? shop.location.uuid;
  });
}

const TABLES_EXCLUDED = new Set([
  "webhook_deliveries",
  "idempotency_keys",
  "d1_migrations",
  "_cf_KV",
  "sqlite_sequence",
]);
/** One query counting every table's rows; the statement is built once, tables do not change. */
let countAll: D1PreparedStatement | undefined;
async function rowCounts(): Promise<Record<string, number>> {
  if (!countAll) {
    const tables = await env.DB.prepare("select name from sqlite_master where type = 'table'").all<{
      name: string;
    }>();
    const names = tables.results
      .map((t) => t.name)
      .filter((n) => !TABLES_EXCLUDED.has(n) && !n.startsWith("sqlite_") && !n.startsWith("_cf"));
    countAll = env.DB.prepare(
      `select ${names.map((n) => `(select count(*) from "${n}") as "${n}"`).join(", ")}`,
    );
  }
  return (await countAll.first<Record<string, number>>()) ?? {};
}

function expectErrorBody(res: Received, where: string) {
  expect(res.status, where).toBeLessThan(500);
  if (res.status < 400) return;
  const body = res.body as Record<string, unknown>;
  expect(typeof body?.message, `${where}: message`).toBe("string");
  expect(body.code, `${where}: code`).toMatch(/^[a-z]+(_[a-z]+)*$/);
  expect(
    Object.keys(body).every((k) => ["message", "code", "errors", "request_id"].includes(k)),
    `${where}: keys ${Object.keys(body)}`,
  ).toBe(true);
  if (body.errors !== undefined) {
    for (const [field, messages] of Object.entries(body.errors as Record<string, unknown>)) {
      expect(
        Array.isArray(messages) && messages.every((m) => typeof m === "string"),
        `${where}: errors.${field}`,
      ).toBe(true);
    }
  }
}

describe("fuzzing every operation of the OpenAPI documents", () => {
  it("covers both documents", () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.some((o) => o.api === "admin")).toBe(true);
  });

  it("never answers 5xx, always with the error body, and leaves no row behind a rejection", async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(fc.infiniteStream(unit), async (stream) => {
        const draws = stream[Symbol.iterator]();
        const r = () => draws.next().value ?? 0;
        for (const op of operations) {
          const base = op.body ? (sample(op.api, op.body, "", r) as Record<string, unknown>) : {};
          const query = op.params
            .filter((p) => p.in === "query")
            .map(
              (p) =>
                `${p.name}=${encodeURIComponent(String(r() < 0.5 ? sample(op.api, p.schema ?? {}, p.name, r) : ["-1", "0", "abc", "9".repeat(30), ""][Math.floor(r() * 5)]))}`,
            )
            .join("&");
          const cases: { path: string; body?: string; type?: string; query?: string }[] = [];
          for (const mode of ["real", "foreign", "garbage", "huge"] as const) {
            if (mode !== "real" && !op.path.includes("{")) continue;
            cases.push({ path: pathFor(op, mode), query });
          }
          if (op.body)
            for (const m of mutations(op.api, op, base, r))
              cases.push({ path: pathFor(op, "real"), ...m });
          for (const c of cases) {
            const before = await rowCounts();
            const res = await call(op.api, c.path, {
              method: op.method,
              body: c.body,
              type: c.type,
              query: c.query,
            });
            tried++;
            const where = `${op.method} ${c.path}?${c.query ?? ""} ${String(c.body).slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
            expectErrorBody(res, where);
            if (res.status >= 400)
              expect(await rowCounts(), `rows left by ${where}`).toEqual(before);
          }
        }
      }),
      { numRuns: RUNS },
    );
    console.log(
      JSON.stringify({
        fuzz: { operations: operations.length, runs: RUNS, requests: tried, server_errors: 0 },
      }),
    );
  }, 600_000);
});
