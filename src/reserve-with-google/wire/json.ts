import { z } from "@hono/zod-openapi";

/**
 * Proto3 JSON, as the booking server's interface defines it: a parser accepts each field
 * under its proto name (`start_sec`) or its lowerCamel JSON name (`startSec`); an int64 as
 * a decimal string or a number; an enum as its name or its number. Google sends proto names,
 * int64 as strings and enum names; we answer the same way.
 */

const camel = /[A-Z]/g;
/** `startSec` → `start_sec`; a proto name stays as it is. */
export const protoName = (key: string) => key.replace(camel, (c) => `_${c.toLowerCase()}`);

/**
 * Every object key of a parsed body under its proto name (the interface has no map field we
 * read); a field written as null is left out, as proto3 JSON reads null as the default.
 */
export function protoNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(protoNames);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [protoName(k), protoNames(v)]),
  );
}

/** Seconds since the epoch (or a duration) as an int64: a decimal string or an integer. */
export const int64 = z
  .union([z.string().regex(/^-?\d{1,15}$/, "Must be an integer."), z.number().int()])
  .transform(Number)
  .pipe(z.number().int().min(0).max(8.64e12));

/** An int32: proto3 JSON readers take a number or a decimal string ("2") alike. */
export const int32 = z
  .union([z.string().regex(/^-?\d{1,10}$/, "Must be an integer."), z.number().int()])
  .transform(Number)
  .pipe(z.number().int().min(0).max(2_147_483_647));

/** An enum by name, or by number (mapped to its name through `names`, index = number). */
export const protoEnum = <const T extends readonly [string, ...string[]]>(names: T) =>
  z.union([z.enum(names), z.number().int()]).transform((v, ctx): T[number] => {
    if (typeof v === "string") return v;
    const name = names[v];
    if (name === undefined) {
      ctx.addIssue({ code: "custom", message: `Unknown enum number ${v}.` });
      return z.NEVER;
    }
    return name;
  });

/** An int64 written as proto3 JSON writes it: a decimal string. */
export const int64Out = (n: number) => String(Math.trunc(n));

/** Drops the fields left unset (undefined), as a proto3 printer omits them. */
export function unset<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
