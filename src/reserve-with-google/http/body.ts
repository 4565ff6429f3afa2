import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { ApiError } from "../../platform/errors";
import { protoNames } from "../wire/json";

/** Google's requests are small (a BatchAvailabilityLookup of a few hundred slots is far below). */
const MAX_BYTES = 256 * 1024;

const MAX_DEPTH = 16;

/** Whether no value inside `root` is nested deeper than `max` (iterative: no stack to exhaust). */
function nestedAtMost(root: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === null || typeof value !== "object") continue;
    if (depth >= max) return false;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * The request's body as the method's message: JSON (a bad one is 400 `invalid_json`), every
 * key under its proto name, then the message's schema (a field of the wrong type is 400
 * `invalid_argument` naming the field by its path).
 */
export async function protoBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const text = await c.req.text();
  if (text.length > MAX_BYTES) {
    throw new ApiError("payload_too_large", `The body may not exceed ${MAX_BYTES} bytes.`);
  }
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The body is not JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ApiError("invalid_json", "The body must be a JSON object.");
  }
  // The deepest of Google's messages is a few levels; a body of nested arrays would only
  // exhaust the stack of the walks below (a 500).
  if (!nestedAtMost(parsed, MAX_DEPTH)) {
    throw new ApiError("invalid_argument", `The body nests deeper than ${MAX_DEPTH} levels.`);
  }
  const result = schema.safeParse(protoNames(parsed));
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join(".") || "body";
    (errors[field] ??= []).push(issue.message);
  }
  throw new ApiError("invalid_argument", "The request does not fit the method's message.", {
    errors,
  });
}
