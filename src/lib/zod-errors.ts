import { z } from "@hono/zod-openapi";
import type { FieldErrors } from "./errors";

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
  for (const issue of error.issues) {
    const parts = prefix ? [prefix, ...issue.path.map(String)] : issue.path.map(String);
    const key = parts.length > 0 ? parts.join(".") : "body";
    const bucket = errors[key] ?? [];
    if (!bucket.includes(issue.message)) bucket.push(issue.message);
    errors[key] = bucket;
  }
  return errors;
}
