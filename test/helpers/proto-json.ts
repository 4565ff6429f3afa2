// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the `?raw` module type for the Node tsconfig too
/// <reference path="./proto-raw.d.ts" />
import protobuf from "protobufjs";
import { expect } from "vitest";
import bookingServerProto from "../fixtures/rwg/booking_server_v3.proto?raw";
import feedsProto from "../fixtures/rwg/feeds.proto?raw";

/**
 * Proto3 JSON checked against our restatement of Google's interface
 * (test/fixtures/rwg/*.proto), not against shapes typed again in a test: a key the message
 * does not have, a number where the proto says int64 string, an enum name that is not one,
 * a second member of a oneof… each is reported with its path.
 */
export const BOOKING_SERVER = "ext.maps.booking.partner.v3";
export const FEEDS = "ext.maps.booking.feeds";

// protobufjs compiles its fromObject/toObject with `Function(...)`. workerd forbids code from
// strings; the Workers pool lets `new Function` through its unsafe-eval binding but not a plain
// call, so in workerd a call is turned into a construction (Node needs nothing).
const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
if (agent === "Cloudflare-Workers") {
  const constructing = new Proxy(globalThis.Function, {
    apply: (target, _this, args: string[]) => new target(...args),
  });
  globalThis.Function = constructing;
}

const parse = (text: string) => {
  const { root } = protobuf.parse(text, { keepCase: true });
  root.resolveAll();
  return root;
};
/** The booking server's messages and the feeds' (two packages, so one lookup serves both). */
export const protoRoots = { bookingServer: parse(bookingServerProto), feeds: parse(feedsProto) };
export const protoTexts = { bookingServer: bookingServerProto, feeds: feedsProto };

/** A message type by full name, or by short name in the booking server's package. */
export function protoType(name: string): protobuf.Type {
  const full = name.includes(".") && !name.startsWith(".") ? name : `${BOOKING_SERVER}.${name}`;
  for (const root of Object.values(protoRoots)) {
    const found = root.lookup(full);
    if (found instanceof protobuf.Type) return found;
  }
  throw new Error(`no message ${name} in test/fixtures/rwg/*.proto`);
}

/** An enum by full name, or by name in the booking server's package (`BookingFailure.Cause`). */
export function protoEnum(name: string): protobuf.Enum {
  for (const root of Object.values(protoRoots)) {
    for (const full of [name, `${BOOKING_SERVER}.${name}`]) {
      const found = root.lookup(full);
      if (found instanceof protobuf.Enum) return found;
    }
  }
  throw new Error(`no enum ${name} in test/fixtures/rwg/*.proto`);
}

export type ProtoJsonOptions = {
  /** Keys under their proto names (what the booking server writes), lowerCamel JSON names, or either. */
  names?: "proto" | "json" | "either";
  /** int64s as decimal strings only (the booking server), or numbers too (the feeds). */
  int64?: "string" | "string-or-number";
  /** Enums by name only (what we write), or by number too (what a reader accepts). */
  enums?: "name" | "name-or-number";
};

const INT32 = new Set(["int32", "sint32", "sfixed32"]);
const UINT32 = new Set(["uint32", "fixed32"]);
const INT64 = new Set(["int64", "sint64", "sfixed64"]);
const UINT64 = new Set(["uint64", "fixed64"]);
const FLOAT = new Set(["double", "float"]);
const INT64_MAX = 2n ** 63n - 1n;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** Every way `json` departs from the proto3 JSON of message `name`, each as "path: problem". */
export function protoJsonErrors(name: string, json: unknown, options: ProtoJsonOptions = {}) {
  const errors: string[] = [];
  checkMessage(protoType(name), json, name, options, errors);
  return errors;
}

/** Fails the test, listing every path where `json` is not the proto3 JSON of `name`. */
export function expectProtoJson(name: string, json: unknown, options: ProtoJsonOptions = {}) {
  expect(protoJsonErrors(name, json, options), `${name} as proto3 JSON`).toEqual([]);
}

function fieldByKey(type: protobuf.Type, key: string, names: ProtoJsonOptions["names"]) {
  const byProto = names !== "json" ? type.fields[key] : undefined;
  if (byProto) return byProto;
  if (names === "proto") return undefined;
  return type.fieldsArray.find((f) => f.name !== key && protobuf.util.camelCase(f.name) === key);
}

function checkMessage(
  type: protobuf.Type,
  json: unknown,
  path: string,
  options: ProtoJsonOptions,
  errors: string[],
) {
  if (!isObject(json)) {
    errors.push(`${path}: ${show(json)} is not an object (message ${type.name})`);
    return;
  }
  const seen = new Map<protobuf.Field, string>();
  for (const [key, value] of Object.entries(json)) {
    const at = `${path}.${key}`;
    const field = fieldByKey(type, key, options.names ?? "proto");
    if (!field) {
      errors.push(`${at}: not a field of ${type.fullName.slice(1)}`);
      continue;
    }
    const twice = seen.get(field);
    if (twice !== undefined) errors.push(`${at}: the same field as ${twice}`);
    seen.set(field, key);
    checkField(field, value, at, options, errors);
  }
  for (const oneof of type.oneofsArray) {
    const set = oneof.fieldsArray.filter((f) => seen.has(f)).map((f) => seen.get(f));
    if (set.length > 1) errors.push(`${path}: oneof ${oneof.name} has ${set.join(" and ")} set`);
  }
}

function checkField(
  field: protobuf.Field,
  value: unknown,
  at: string,
  options: ProtoJsonOptions,
  errors: string[],
) {
  if (value === null) {
    errors.push(`${at}: null (an unset field is left out)`);
    return;
  }
  if (field.map) {
    if (!isObject(value)) errors.push(`${at}: ${show(value)} is not an object (map field)`);
    else
      for (const [k, v] of Object.entries(value))
        checkValue(field, v, `${at}.${k}`, options, errors);
    return;
  }
  if (field.repeated) {
    if (!Array.isArray(value))
      errors.push(`${at}: ${show(value)} is not an array (repeated field)`);
    else value.forEach((v, i) => checkValue(field, v, `${at}[${i}]`, options, errors));
    return;
  }
  checkValue(field, value, at, options, errors);
}

function checkValue(
  field: protobuf.Field,
  value: unknown,
  at: string,
  options: ProtoJsonOptions,
  errors: string[],
) {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Type) return checkMessage(resolved, value, at, options, errors);
  if (resolved instanceof protobuf.Enum) {
    const byName = typeof value === "string" && Object.hasOwn(resolved.values, value);
    const byNumber =
      options.enums === "name-or-number" &&
      typeof value === "number" &&
      Object.values(resolved.values).includes(value);
    if (!byName && !byNumber) {
      errors.push(`${at}: ${show(value)} is not a value of enum ${resolved.fullName.slice(1)}`);
    }
    return;
  }
  const problem = scalarProblem(field.type, value, options);
  if (problem) errors.push(`${at}: ${show(value)} ${problem}`);
}

function scalarProblem(type: string, value: unknown, options: ProtoJsonOptions) {
  if (type === "string") return typeof value === "string" ? null : "is not a string";
  if (type === "bool") return typeof value === "boolean" ? null : "is not a boolean";
  if (type === "bytes") {
    return typeof value === "string" && /^[A-Za-z0-9+/_-]*=*$/.test(value) ? null : "is not base64";
  }
  if (FLOAT.has(type)) {
    const ok =
      (typeof value === "number" && Number.isFinite(value)) ||
      ["NaN", "Infinity", "-Infinity"].includes(value as string);
    return ok ? null : `is not a ${type}`;
  }
  if (INT32.has(type) || UINT32.has(type)) {
    const min = UINT32.has(type) ? 0 : -(2 ** 31);
    const max = UINT32.has(type) ? 2 ** 32 - 1 : 2 ** 31 - 1;
    const ok = typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
    return ok ? null : `is not an ${type} (an integer number)`;
  }
  if (INT64.has(type) || UINT64.has(type)) {
    const unsigned = UINT64.has(type);
    const asNumber = options.int64 === "string-or-number" && typeof value === "number";
    if (asNumber) {
      const ok = Number.isSafeInteger(value) && (!unsigned || (value as number) >= 0);
      return ok ? null : `is not an ${type}`;
    }
    if (typeof value !== "string" || !(unsigned ? /^\d+$/ : /^-?\d+$/).test(value)) {
      return `is not an ${type} (a decimal string)`;
    }
    const n = BigInt(value);
    const inRange = unsigned ? n <= 2n * INT64_MAX + 1n : n >= -INT64_MAX - 1n && n <= INT64_MAX;
    return inRange ? null : `is out of the range of ${type}`;
  }
  return `has a type the checker does not know (${type})`;
}

/**
 * A second opinion: the message as protobufjs reads it (`fromObject`) and writes it back
 * (`toObject`: proto names, int64 as strings, enums by name, fields left unset omitted).
 */
export function protoDecode(name: string, json: unknown): Record<string, unknown> {
  const type = protoType(name);
  const message = type.fromObject(json as Record<string, unknown>);
  return type.toObject(message, { longs: String, enums: String, bytes: String });
}
