import fc from "fast-check";
import { arbitraryFor, type Ctx, kindFor } from "./arbitraries";
import {
  type Api,
  DEFAULT_MAX_ITEMS,
  maxItemsOf,
  type Schema,
  type Schemas,
  typeOf,
} from "./schema";
import { allOf, KINDS, type World } from "./world";

/**
 * Ways to break a valid request. A body mutation picks one place in the body
 * uniformly (any field at any depth, present or not, or an array item) and
 * one change that fits the schema there: its bounds ±1, its maxLength + 1,
 * maxItems and beyond, another type, a broken format, an id of another kind
 * or another workspace. Whole-body, path, query, header, credential and
 * method mutations break the rest of the request.
 */

type Json = unknown;
type Draw = fc.GeneratorValue;
type Path = (string | number)[];

export interface RawBody {
  body: string | undefined;
  type: string | undefined;
  label: string;
}

interface Slot {
  path: Path;
  schema: Schema;
  name: string;
  present: boolean;
  required: boolean;
  atRoot: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every place of the body a mutation can hit. */
function slots(
  value: Json,
  schema: Schema,
  schemas: Schemas,
  api: Api,
  path: Path = [],
  name = "",
): Slot[] {
  const s = schemas.resolve(api, schema);
  const out: Slot[] = [];
  if (typeOf(s) === "object" && isObject(value)) {
    for (const [k, sub] of Object.entries(s.properties ?? {})) {
      out.push({
        path: [...path, k],
        schema: schemas.resolve(api, sub),
        name: k,
        present: k in value,
        required: (s.required ?? []).includes(k),
        atRoot: path.length === 0,
      });
      if (k in value) out.push(...slots(value[k], sub, schemas, api, [...path, k], k));
    }
  } else if (typeOf(s) === "array" && Array.isArray(value) && s.items) {
    value.forEach((item, i) => {
      out.push({
        path: [...path, i],
        schema: schemas.resolve(api, s.items as Schema),
        name,
        present: true,
        required: true,
        atRoot: false,
      });
      out.push(...slots(item, s.items as Schema, schemas, api, [...path, i], name));
    });
  }
  return out;
}

function setAt(root: Json, path: Path, value: Json | typeof DELETE): Json {
  if (path.length === 0) return value === DELETE ? {} : value;
  const copy = structuredClone(root);
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === DELETE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

const DELETE = Symbol("delete");

const STRANGE_STRINGS = [
  "",
  "   ",
  "\u0000",
  "\ud800",
  "\u202etxt.exe",
  "' OR '1'='1",
  "%00",
  "../../etc/passwd",
  "${jndi:ldap://127.0.0.1:9/a}",
  "<script>alert(1)</script>",
  "NaN",
  "-0",
  "1e309",
  "null",
  "🙂".repeat(300),
  "\r\nX-Injected: 1",
];
const BAD_UUIDS = [
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "{6f1e8c1a-0d3b-4c55-9a7e-2f6f3f0e1c11}",
  "6f1e8c1a0d3b4c559a7e2f6f3f0e1c11",
  "6f1e8c1a-0d3b-4c55-9a7e-2f6f3f0e1c11 ",
];
const BAD_INSTANTS = [
  "2030-02-30T10:00:00Z",
  "2030-13-01T10:00:00Z",
  "2030-03-04T24:00:00Z",
  "2030-03-04T10:60:00Z",
  "2030-03-04T10:00:00+14:00",
  "2030-03-04T10:00:00.123456789Z",
  "0000-01-01T00:00:00Z",
  "9999-12-31T23:59:59Z",
  "+275760-09-13T00:00:00Z",
  "2030-03-04",
  "1893456000000",
  "2030-03-04 10:00:00",
  "2030-W10-1",
];
const WRONG_TYPES: Json[] = [true, 0, -1, 1.5, "", "x", [], {}, [1, 2], { nested: { a: [1] } }];

function typeName(v: Json) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

type Option = { label: string; make: () => Json | typeof DELETE };

/**
 * Candidate changes for one place, in groups (absence, null, another type,
 * bounds, lengths, formats, ids, array sizes…). The caller draws a group, then
 * a change in it, both uniformly, so the size of a group does not drown the
 * others: an array slot gets "maxItems + 1" as often as "null".
 */
function changes(
  slot: Slot,
  current: Json,
  ctx: Ctx,
  world: World,
  sample: (s: Schema) => Json,
): Record<string, Option[]> {
  const s = slot.schema;
  const type = typeOf(s);
  const groups: Record<string, Option[]> = {};
  const add = (group: string, label: string, make: () => Json | typeof DELETE) =>
    (groups[group] ??= []).push({ label, make });
  const kind = kindFor(slot.name, ctx, slot.atRoot);

  if (slot.present) add("absence", slot.required ? "drop required" : "drop optional", () => DELETE);
  add("null", "null", () => null);
  for (const w of WRONG_TYPES)
    if (typeName(w) !== type && !(type === "number" && typeName(w) === "integer"))
      add("type", `type ${typeName(w)}`, () => w);
  add("type", "operator object", () => JSON.parse('{"$gt": "", "__proto__": {"polluted": true}}'));
  add("valid", "another valid value", () => sample(s));
  if (s.enum) {
    add("enum", "not in enum", () => "__not_an_enum__");
    const first = s.enum[0];
    if (typeof first === "string") {
      add("enum", "enum upper case", () => first.toUpperCase());
      add("enum", "enum padded", () => ` ${first} `);
    }
  }
  if (type === "string") {
    for (const v of STRANGE_STRINGS) add("text", "strange string", () => v);
    add("length", "empty string", () => "");
    if (s.maxLength !== undefined) {
      const max = s.maxLength;
      add("length", "maxLength", () => "m".repeat(max));
      add("length", "maxLength+1", () => "m".repeat(max + 1));
      add("length", "maxLength+1 in emoji (code points)", () =>
        "🙂".repeat(Math.ceil((max + 1) / 2)),
      );
    }
    add("length", "10k string", () => "z".repeat(10_000));
    if (s.minLength) add("length", "minLength-1", () => "m".repeat((s.minLength ?? 1) - 1));
    if (s.pattern)
      add("pattern", "pattern broken", () => `${typeof current === "string" ? current : "x"}!`);
    if (s.format === "uuid" || kind) {
      for (const v of BAD_UUIDS) add("id", "bad uuid", () => v);
      add("id", "unknown uuid", () => crypto.randomUUID());
      if (typeof current === "string") add("id", "upper-case id", () => current.toUpperCase());
      // Another workspace's record of the same kind: must be "unknown" here.
      for (const f of (kind ? allOf(world.foreign.pools[kind]) : []).slice(0, 3))
        add("id", "foreign id", () => f);
      // An id of another kind.
      for (const k of KINDS) {
        const other = world.shop.pools[k].fixed[0];
        if (k !== kind && other && other !== current) add("id", `id of ${k}`, () => other);
      }
    }
    if (s.format === "date-time" || /reserved_on|_at$|datetime|range_|date$/.test(slot.name))
      for (const v of BAD_INSTANTS) add("instant", "bad instant", () => v);
    if (s.format === "email" || /email/.test(slot.name))
      for (const v of ["a@", "@b.c", "a@b", "a b@c.d", "a@b.c,"])
        add("email", "bad email", () => v);
    if (slot.name === "url")
      for (const v of [
        "ftp://127.0.0.1:9/",
        "http://user:pw@127.0.0.1:9/",
        "//127.0.0.1:9/",
        "javascript:alert(1)",
        "http://",
        "127.0.0.1:9",
      ])
        add("url", "bad url", () => v);
  }
  if (type === "integer" || type === "number") {
    const { minimum, maximum } = s;
    if (minimum !== undefined) {
      add("bounds", "minimum-1", () => minimum - 1);
      add("bounds", "minimum", () => minimum);
    }
    if (maximum !== undefined) {
      add("bounds", "maximum+1", () => maximum + 1);
      add("bounds", "maximum", () => maximum);
    }
    for (const v of [
      0,
      -1,
      1.5,
      2 ** 53,
      2 ** 53 + 2,
      1e21,
      -1e21,
      Number.MAX_VALUE,
      1e-7,
      "7",
      "1e3",
    ])
      add("number", "number edge", () => v);
  }
  if (type === "boolean")
    for (const v of ["true", "false", 1, 0, "yes"]) add("boolean", "boolean-ish", () => v);
  if (type === "array") {
    const items = Array.isArray(current) ? current : [];
    const max = maxItemsOf(s);
    const documented = s.maxItems !== undefined;
    // Longer lists repeat the items there are, or one valid item.
    const fill = (n: number) => {
      const seed = items.length ? items : s.items ? [sample(s.items)] : [null];
      return Array.from({ length: n }, (_, i) => structuredClone(seed[i % seed.length]));
    };
    add("array size", "empty array", () => []);
    add("array size", documented ? "maxItems" : `${DEFAULT_MAX_ITEMS} items (no maxItems)`, () =>
      fill(max),
    );
    add(
      "array size",
      documented ? "maxItems+1" : `${DEFAULT_MAX_ITEMS + 1} items (no maxItems)`,
      () => fill(max + 1),
    );
    // Far past the limit: where a schema has no maxItems yet, this is what reaches D1's parameter limit.
    add("array size", documented ? "far beyond maxItems" : "1000 items (no maxItems)", () =>
      fill(documented ? Math.min(5 * max, 2000) + 1 : 1000),
    );
    if (kind)
      add("array size", "maxItems unknown ids", () =>
        Array.from({ length: max }, () => crypto.randomUUID()),
      );
    if (items.length)
      add("array items", "duplicate items", () => [items[0], items[0], ...items.slice(1)]);
    add("array items", "null item", () => [...items, null]);
    add("array items", "wrong item types", () => [...items, "x", 7, {}]);
  }
  if (type === "object") {
    add("object", "empty object", () => ({}));
    if (isObject(current)) {
      add("object", "extra field", () => ({ ...current, unexpected_field: "x" }));
      add("object", "prototype keys", () =>
        JSON.parse(
          `{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}${Object.keys(current).length ? `, ${JSON.stringify(current).slice(1)}` : "}"}`,
        ),
      );
    }
  }
  return groups;
}

/**
 * One of `items`, drawn uniformly through fast-check. Draws an index rather
 * than the item, so a report does not print large values.
 */
export const choose = <T>(g: Draw, items: readonly T[]): T => {
  if (items.length === 0) throw new Error("fuzz: choose from nothing");
  return items[g(fc.nat, { max: items.length - 1 })] as T;
};

/**
 * One body mutation: a place (uniformly among all places, or among the
 * arrays when `focus` asks for them), a group of changes, and a change.
 */
export function mutateBody(
  g: Draw,
  body: Json,
  schema: Schema,
  ctx: Ctx,
  world: World,
  focus: "any" | "arrays" = "any",
): RawBody {
  const places = slots(body, schema, ctx.schemas, ctx.api);
  if (places.length === 0) return wholeBody(g, body);
  const arrays = places.filter((p) => typeOf(p.schema) === "array");
  const slot = choose(g, focus === "arrays" && arrays.length ? arrays : places);
  const current = slot.present ? getAt(body, slot.path) : undefined;
  const sample = (s: Schema) => g(() => arbitraryFor(s, ctx, slot.name, slot.atRoot));
  const groups = changes(slot, current, ctx, world, sample);
  const group = choose(g, Object.keys(groups).sort());
  const change = choose(g, groups[group] ?? []);
  return json(setAt(body, slot.path, change.make()), `${change.label} at ${slot.path.join(".")}`);
}

function getAt(root: Json, path: Path): Json {
  let node = root as Record<string | number, unknown> | undefined;
  for (const k of path) node = node?.[k] as Record<string | number, unknown> | undefined;
  return node;
}

const json = (v: Json, label: string): RawBody => ({
  body: JSON.stringify(v),
  type: "application/json",
  label,
});

/** Breaking the body as a whole: not an object, not JSON, not declared as JSON, too big, too deep. */
export function wholeBody(g: Draw, body: Json): RawBody {
  const text = JSON.stringify(body) ?? "{}";
  const raw = (b: string | undefined, type: string | undefined, label: string): RawBody => ({
    body: b,
    type,
    label,
  });
  const JSON_TYPE = "application/json";
  const cases: (() => RawBody)[] = [
    () => json([body], "array body"),
    () => json("text", "string body"),
    () => json(42, "number body"),
    () => json(null, "null body"),
    () => raw('{"broken": ', JSON_TYPE, "truncated JSON"),
    () => raw(`${text}}`, JSON_TYPE, "trailing brace"),
    () => raw("{'single': 1}", JSON_TYPE, "single quotes"),
    () => raw('{"a": NaN}', JSON_TYPE, "NaN literal"),
    () => raw(`\ufeff${text}`, JSON_TYPE, "BOM"),
    () => raw("", JSON_TYPE, "empty JSON body"),
    () => raw(text, "text/plain", "text/plain"),
    () => raw("a=1&b=2", "application/x-www-form-urlencoded", "form body"),
    () => raw(text, undefined, "no content type"),
    () => raw(text, "application/json; charset=utf-8", "json with charset"),
    () => raw(text, "APPLICATION/JSON", "json upper case"),
    () => raw(text, "application/vnd.api+json", "json suffix type"),
    () => raw(text, "application/jsonp", "json-like type"),
    () =>
      raw(
        `{"pad": "${"p".repeat(300_000)}"${text === "{}" ? "}" : `, ${text.slice(1)}`}`,
        JSON_TYPE,
        "body over 256 KB",
      ),
    () => raw(`${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`, JSON_TYPE, "5000 nested objects"),
    () => raw(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, JSON_TYPE, "100000 nested arrays"),
    () =>
      raw(
        text === "{}" ? '{"dup": 1, "dup": 2}' : text.replace("{", '{"dup": 1, "dup": 2, '),
        JSON_TYPE,
        "duplicate keys",
      ),
  ];
  return choose(g, cases)();
}
