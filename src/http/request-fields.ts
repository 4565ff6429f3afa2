import type { Subject } from "../platform/rules/problems";
import { ApiError, type FieldErrors, InvalidError, validationError } from "../platform/errors";

/**
 * Where one request body carries each thing its use-case may refuse: a field
 * name, or a function of the subject's positions. A route declares one per
 * body shape; the type asks for every subject the use-case names.
 */
export type FieldNames<S extends Subject> = {
  readonly [K in S["is"]]: string | ((about: Extract<S, { is: K }>) => string);
};

/** A field of any subject; a method's type, so that a function of one kind of subject fits it. */
type NameOf = { name(about: Subject): string }["name"];

/**
 * The error a client sees: an `InvalidError` becomes the ApiError with each
 * subject at its field, in the order the use-case listed them (a later
 * problem on the same field replaces the earlier one, as object spreads
 * did); anything else is returned as it is.
 */
export function inFields<S extends Subject>(error: unknown, names: FieldNames<S>): unknown {
  if (!(error instanceof InvalidError)) return error;
  // Read by the subject's name: which subjects a thrown error carries is not in its type.
  const byName: Readonly<Record<string, string | NameOf | undefined>> = names;
  const errors: FieldErrors = {};
  for (const { about, messages } of error.problems) {
    const name = byName[about.is];
    // The types rule this out; a subject no route knows stays a 500, never a domain name in a body.
    if (name === undefined)
      return new Error(`no request field for "${about.is}"`, { cause: error });
    errors[typeof name === "string" ? name : name(about)] = [...messages];
  }
  return error.code === "validation_failed"
    ? validationError(errors)
    : new ApiError(error.code, error.message, { errors });
}

/** Runs a use-case (or a check) and answers its refusals in the request's field names. */
export async function withFields<S extends Subject, T>(
  names: FieldNames<S>,
  run: () => Promise<T> | T,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw inFields(error, names);
  }
}
