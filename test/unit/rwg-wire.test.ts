import fc from "fast-check";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import type { z } from "@hono/zod-openapi";
import * as enums from "../../src/reserve-with-google/wire/enums";
import { int32, int64, protoNames } from "../../src/reserve-with-google/wire/json";
import * as requests from "../../src/reserve-with-google/wire/requests";
import { protoEnum, protoType } from "../helpers/proto-json";

/**
 * The request schemas and enums of src/reserve-with-google/wire held to our restatement of
 * Google's interface (test/fixtures/rwg/booking_server_v3.proto, itself compared with
 * Google's file by tools/rwg/compare-proto.ts): no shape is typed again here.
 */
type Kind =
  | { kind: "string" | "int64" | "int32" | "bool" }
  | { kind: "enum"; names: string[] }
  | { kind: "message"; schema: z.ZodObject }
  | { kind: "repeated"; of: Kind };

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  entries?: Record<string, string>;
};
const def = (s: z.ZodType) => s._zod.def as unknown as Def;

/** What a field's schema reads, seen through its default or optional wrapper. */
function kindOf(schema: z.ZodType): Kind {
  const d = def(schema);
  if ((d.type === "default" || d.type === "optional") && d.innerType) return kindOf(d.innerType);
  if (schema === int64) return { kind: "int64" };
  if (schema === int32) return { kind: "int32" };
  if (d.type === "string") return { kind: "string" };
  if (d.type === "boolean") return { kind: "bool" };
  if (d.type === "object") return { kind: "message", schema: schema as z.ZodObject };
  if (d.type === "array" && d.element) return { kind: "repeated", of: kindOf(d.element) };
  // protoEnum: a name (z.enum) or a number, piped through a mapping to the name.
  const union = d.type === "pipe" && d.in ? def(d.in) : undefined;
  const names = union?.options?.map(def).find((o) => o.type === "enum")?.entries;
  if (names) return { kind: "enum", names: Object.values(names) };
  throw new Error(`a schema of kind ${d.type} the test does not know`);
}

const SCALAR: Record<string, string> = {
  string: "string",
  bool: "bool",
  int64: "int64",
  uint64: "int64",
  sint64: "int64",
  int32: "int32",
  uint32: "int32",
  sint32: "int32",
};

/** Every key of `schema` is a field of `type` whose type the schema reads. */
function schemaMismatches(schema: z.ZodObject, type: protobuf.Type, path: string): string[] {
  return Object.entries(schema.shape).flatMap(([key, fieldSchema]) => {
    const at = `${path}.${key}`;
    const field = type.fields[key];
    if (!field) return [`${at}: not a field of ${type.name}`];
    let kind = kindOf(fieldSchema as z.ZodType);
    if (field.repeated !== (kind.kind === "repeated")) return [`${at}: repeated differs`];
    if (kind.kind === "repeated") kind = kind.of;
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      return kind.kind === "message"
        ? schemaMismatches(kind.schema, resolved, `${at}`)
        : [`${at}: reads ${kind.kind}, the proto has message ${resolved.name}`];
    }
    if (resolved instanceof protobuf.Enum) {
      const names = Object.keys(resolved.values);
      return kind.kind === "enum" && JSON.stringify(kind.names) === JSON.stringify(names)
        ? []
        : [
            `${at}: reads ${JSON.stringify(kind)}, the proto has enum ${resolved.name} ${JSON.stringify(names)}`,
          ];
    }
    return SCALAR[field.type] === kind.kind
      ? []
      : [`${at}: reads ${kind.kind}, the proto has ${field.type}`];
  });
}

const SCHEMAS = (Object.entries(requests) as [string, unknown][]).filter(
  (e): e is [string, z.ZodObject] =>
    typeof e[1] === "object" && def(e[1] as z.ZodType)?.type === "object",
);

describe("the wire schemas are the proto's messages", () => {
  it("covers every request message we read", () => {
    expect(SCHEMAS.map(([name]) => name).sort()).toEqual(
      [
        "ResourceIds",
        "Slot",
        "SlotTime",
        "PostalAddress",
        "UserInformation",
        "PaymentInformation",
        "Booking",
        "BatchAvailabilityLookupRequest",
        "CheckAvailabilityRequest",
        "CreateBookingRequest",
        "UpdateBookingRequest",
        "GetBookingStatusRequest",
        "ListBookingsRequest",
      ].sort(),
    );
  });

  it.each(SCHEMAS)(
    "%s: each key a field of the same-named message, of a type it reads",
    (name, schema) => {
      expect(schemaMismatches(schema, protoType(name), name)).toEqual([]);
    },
  );

  it.each([
    ["BOOKING_STATUS", "BookingStatus"],
    ["PREPAYMENT_STATUS", "PrepaymentStatus"],
    ["CONFIRMATION_MODE", "ConfirmationMode"],
    ["PAYMENT_PROCESSED_BY", "PaymentInformation.PaymentProcessedBy"],
    ["FAILURE_CAUSE", "BookingFailure.Cause"],
  ] as const)("%s is enum %s (names and numbers)", (list, name) => {
    const proto = protoEnum(name);
    expect(enums[list].map((n, number) => [n, number])).toEqual(
      Object.entries(proto.values).sort((a, b) => a[1] - b[1]),
    );
  });
});

/** A proto3 JSON value as Google may send it, and the value it means (proto names, numbers, enum names). */
type Sample = { json: unknown; canon: unknown };
const camel = (name: string) => protobuf.util.camelCase(name);
const INT64_TYPES = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const INT32_TYPES = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
/** Seconds up to 2100: the range a slot or a payment option lives in. */
const SECONDS = 4_102_444_800;

function valueArb(field: protobuf.Field, depth: number): fc.Arbitrary<Sample> {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return messageArb(resolved, depth);
  if (resolved instanceof protobuf.Enum) {
    const values = Object.entries(resolved.values);
    return fc
      .tuple(fc.constantFrom(...values), fc.boolean())
      .map(([[name, number], byNumber]) => ({ json: byNumber ? number : name, canon: name }));
  }
  // Proto3 JSON: a reader takes an int64 or an int32 as a number or a decimal string.
  const whole = (max: number) =>
    fc
      .tuple(fc.integer({ min: 0, max }), fc.boolean())
      .map(([n, asString]) => ({ json: asString ? String(n) : n, canon: n }));
  if (INT64_TYPES.has(field.type)) return whole(SECONDS);
  if (INT32_TYPES.has(field.type)) return whole(10_000);
  const same = <T>(a: fc.Arbitrary<T>) => a.map((v) => ({ json: v, canon: v }));
  if (field.type === "bool") return same(fc.boolean());
  if (field.type === "double" || field.type === "float") {
    return same(fc.double({ noNaN: true, noDefaultInfinity: true }));
  }
  // ISO 3166 alpha-2 (our schema bounds it to two characters).
  if (field.name === "country") return same(fc.constantFrom("", "DE", "US"));
  if (field.type === "string") return same(fc.string({ maxLength: 30 }));
  throw new Error(`no generator for ${field.type}`);
}

function fieldArb(field: protobuf.Field, depth: number): fc.Arbitrary<Sample> {
  if (field.map) {
    return fc
      .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 })
      .map((v) => ({ json: v, canon: v }));
  }
  if (field.repeated) {
    return fc.array(valueArb(field, depth), { maxLength: 3 }).map((list) => ({
      json: list.map((v) => v.json),
      canon: list.map((v) => v.canon),
    }));
  }
  return valueArb(field, depth);
}

/** A message from the proto's reflection: any fields set, each under its proto or lowerCamel name, at most one per oneof. */
function messageArb(type: protobuf.Type, depth: number): fc.Arbitrary<Sample> {
  const fields = type.fieldsArray.filter(
    (f) => depth > 0 || !(f.resolvedType instanceof protobuf.Type),
  );
  const model = Object.fromEntries(
    fields.map((f) => [
      f.name,
      fc.tuple(
        fieldArb(f, depth - 1),
        fc.boolean(),
        fc.nat(9).map((n) => n === 0),
      ),
    ]),
  );
  return fc.record(model, { requiredKeys: [] }).map((chosen) => {
    const json: Record<string, unknown> = {};
    const canon: Record<string, unknown> = {};
    const oneofs = new Set<string>();
    for (const f of fields) {
      const pick = chosen[f.name];
      if (!pick) continue;
      if (f.partOf) {
        if (oneofs.has(f.partOf.name)) continue;
        oneofs.add(f.partOf.name);
      }
      const [value, asCamel, asNull] = pick;
      const key = asCamel ? camel(f.name) : f.name;
      // Proto3 JSON reads a null field as its default (as if left out).
      if (asNull) json[key] = null;
      else {
        json[key] = value.json;
        canon[f.name] = value.canon;
      }
    }
    return { json, canon };
  });
}

const isDefault = (field: protobuf.Field, value: unknown) =>
  value === undefined ||
  value === "" ||
  value === 0 ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (field.resolvedType instanceof protobuf.Enum && field.resolvedType.values[value as string] === 0);

/** Every value we read equals what was sent (a field not sent reads as its default). */
function lost(parsed: unknown, canon: unknown, type: protobuf.Type, path: string): string[] {
  const sent = (canon ?? {}) as Record<string, unknown>;
  return Object.entries(parsed as Record<string, unknown>).flatMap(([key, value]) => {
    const at = `${path}.${key}`;
    const field = type.fields[key];
    if (!field) return [`${at}: not a field of ${type.name}`];
    const expected = sent[key];
    if (expected === undefined) {
      return isDefault(field, value) ? [] : [`${at}: ${JSON.stringify(value)}, not sent`];
    }
    const resolved = field.resolvedType;
    if (resolved instanceof protobuf.Type) {
      if (!field.repeated) return lost(value, expected, resolved, at);
      const list = value as unknown[];
      const want = expected as unknown[];
      if (list.length !== want.length) return [`${at}: ${list.length} read, ${want.length} sent`];
      return list.flatMap((v, i) => lost(v, want[i], resolved, `${at}[${i}]`));
    }
    return JSON.stringify(value) === JSON.stringify(expected)
      ? []
      : [`${at}: read ${JSON.stringify(value)}, sent ${JSON.stringify(expected)}`];
  });
}

const REQUESTS = [
  "BatchAvailabilityLookupRequest",
  "CheckAvailabilityRequest",
  "CreateBookingRequest",
  "UpdateBookingRequest",
  "GetBookingStatusRequest",
  "ListBookingsRequest",
] as const;

describe("requests generated from the proto", () => {
  it.each(REQUESTS)("%s parses after protoNames, and what we read survives", (name) => {
    const type = protoType(name);
    const schema = requests[name] as z.ZodType;
    fc.assert(
      fc.property(messageArb(type, 4), ({ json, canon }) => {
        const result = schema.safeParse(protoNames(json));
        expect(result.error?.issues ?? [], JSON.stringify(json)).toEqual([]);
        expect(lost(result.data, canon, type, name), JSON.stringify(json)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it("reads the values the booking server works with from Google's own sample", () => {
    const sample = {
      idempotency_token: "18307119013960637991",
      payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      slot: {
        confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        duration_sec: "1800",
        merchant_id: "1234",
        resources: { party_size: 2 },
        service_id: "5678",
        start_sec: "1606467600",
      },
      user_information: { user_id: "1111111111111111111", telephone: "+12091111111" },
    };
    const read = requests.CreateBookingRequest.parse(protoNames(sample));
    expect(read.slot).toMatchObject({
      start_sec: 1606467600,
      duration_sec: 1800,
      merchant_id: "1234",
    });
    expect(read.slot?.resources?.party_size).toBe(2);
  });
});
