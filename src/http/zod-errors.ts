import { z } from "@hono/zod-openapi";
import type { FieldErrors } from "../platform/errors";

// Missing fields read better as "required" than as zod's type mismatch against undefined.
z.config({
  customError: (issue) =>
    issue.code === "invalid_type" && issue.input === undefined
      ? "This field is required."
      : undefined,
});

/** zod issues → Laravel-style `{ "items.0.service_uuid": ["..."] }`. */
export function fieldErrorsFrom(error: z.ZodError, prefix?: string): FieldErrors {
  const errors: FieldErrors = {};
  const add = (path: PropertyKey[], message: string) => {
    const parts = prefix ? [prefix, ...path.map(String)] : path.map(String);
    const key = parts.length > 0 ? parts.join(".") : "body";
    const bucket = errors[key] ?? [];
    if (!bucket.includes(message)) bucket.push(message);
    errors[key] = bucket;
  };
  for (const issue of error.issues) {
    // A strict object's unknown keys: each is an error on itself, not on the object holding it.
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key], "Unknown field.");
    } else add(issue.path, issue.message);
  }
  return errors;
}
