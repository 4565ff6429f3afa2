import { Validator } from "@cfworker/json-schema";
import { type ErrorCode, statusFor } from "../../../src/platform/errors";
import { type Api, type Doc, type Operation, type Schema, Schemas } from "./schema";

/**
 * What every answer must satisfy. Error bodies follow docs/api.md "Conventions" (one shape,
 * a known code whose status is the one sent); success bodies validate against
 * the response schema the OpenAPI document gives for that status.
 */

const ERROR_KEYS = new Set(["message", "code", "errors", "request_id"]);

/** Problems with a 4xx/5xx body, or [] if it has the one error shape. */
export function errorBodyProblems(
  status: number,
  json: unknown,
  jsonError: string | null,
): string[] {
  if (jsonError !== null || json === undefined)
    return [`body is not JSON (${jsonError ?? "empty"})`];
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return ["body is not an object"];
  const body = json as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof body.message !== "string" || body.message.length === 0)
    problems.push("message is not a non-empty string");
  if (typeof body.code !== "string" || !/^[a-z]+(_[a-z]+)*$/.test(body.code))
    problems.push(`code ${JSON.stringify(body.code)} is not snake_case`);
  else {
    let expected: number | undefined;
    try {
      expected = statusFor(body.code as ErrorCode);
    } catch {
      expected = undefined;
    }
    if (expected === undefined) problems.push(`code ${body.code} is not one of the API's codes`);
    else if (expected !== status)
      problems.push(`code ${body.code} belongs to ${expected}, sent with ${status}`);
  }
  // A taken slot's 409 may offer other starts (at most 5), a series' 409 its occurrences that
  // cannot be booked or moved (at most 52); a full group session's 409 other starts too
  // (withAlternatives answers both codes); nothing else may.
  const allowed =
    body.code === "slot_unavailable"
      ? ["alternatives", "conflicts"]
      : body.code === "session_full"
        ? ["alternatives"]
        : [];
  const extra = Object.keys(body).filter((k) => !ERROR_KEYS.has(k) && !allowed.includes(k));
  if (extra.length) problems.push(`unexpected keys ${extra.join(", ")}`);
  if (body.alternatives !== undefined) {
    const offered = body.alternatives;
    if (
      !Array.isArray(offered) ||
      offered.length > 5 ||
      !offered.every(
        (a) =>
          typeof a === "object" &&
          a !== null &&
          typeof (a as Record<string, unknown>).start === "string" &&
          !Number.isNaN(Date.parse(String((a as Record<string, unknown>).start))) &&
          typeof (a as Record<string, unknown>).staffer_uuid === "string",
      )
    )
      problems.push("alternatives is not a list of at most 5 { start, staffer_uuid }");
  }
  if (body.conflicts !== undefined) {
    const conflicts = body.conflicts;
    if (
      !Array.isArray(conflicts) ||
      conflicts.length > 52 ||
      !conflicts.every((c) => {
        const conflict = c as Record<string, unknown>;
        return (
          typeof c === "object" &&
          c !== null &&
          typeof conflict.start === "string" &&
          !Number.isNaN(Date.parse(conflict.start)) &&
          (conflict.reason === "slot_unavailable" || conflict.reason === "outside_working_hours") &&
          Array.isArray(conflict.alternatives) &&
          conflict.alternatives.length <= 5
        );
      })
    )
      problems.push("conflicts is not a list of at most 52 { start, reason, alternatives }");
  }
  if (body.errors !== undefined) {
    if (typeof body.errors !== "object" || body.errors === null || Array.isArray(body.errors))
      problems.push("errors is not an object");
    else
      for (const [field, messages] of Object.entries(body.errors))
        if (
          !Array.isArray(messages) ||
          messages.length === 0 ||
          !messages.every((m) => typeof m === "string")
        )
          problems.push(`errors.${field} is not a non-empty list of strings`);
  }
  return problems;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** Validators for one document's schemas, one per schema, built on first use. */
export class SchemaValidators {
  private readonly cache = new Map<string, Validator>();
  private readonly schemas: Schemas;
  constructor(private readonly docs: Record<Api, Doc>) {
    this.schemas = new Schemas(docs);
  }

  private validator(api: Api, schema: Schema): Validator {
    const key = `${api}|${JSON.stringify(schema)}`;
    let v = this.cache.get(key);
    if (!v) {
      // `#/components/schemas/…` refs resolve against this root.
      const root = { ...clone(schema), components: clone(this.docs[api].components ?? {}) };
      v = new Validator(root as never, "2020-12", false);
      this.cache.set(key, v);
    }
    return v;
  }

  /** Validation errors of `value` against `schema` ([] when valid). */
  errors(api: Api, schema: Schema, value: unknown): string[] {
    const result = this.validator(api, schema).validate(value);
    if (result.valid) return [];
    // The deepest errors say what is wrong; the wrappers above them only repeat "properties failed".
    const leaves = result.errors.filter(
      (e) =>
        !["properties", "$ref", "items", "allOf", "anyOf", "additionalProperties"].includes(
          e.keyword,
        ) || e.error.includes("not allowed"),
    );
    return (leaves.length ? leaves : result.errors)
      .slice(0, 5)
      .map((e) => `${e.instanceLocation}: ${e.error}`);
  }

  /** A success response against the schema the document gives for its status. */
  responseErrors(op: Operation, status: number, json: unknown): string[] | null {
    const schema = op.responses.get(status);
    if (!schema) return null;
    return this.errors(op.api, schema, json);
  }

  /** Fields of a (valid) response that its schema does not name. */
  undocumentedFields(op: Operation, status: number, json: unknown): string[] {
    const schema = op.responses.get(status);
    if (!schema) return [];
    const out: string[] = [];
    const walk = (s: Schema, v: unknown, at: string) => {
      const r = this.schemas.resolve(op.api, s);
      const variants = r.anyOf ?? r.oneOf;
      if (variants) {
        const fits = variants.find((x) => this.errors(op.api, x, v).length === 0);
        if (fits) walk(fits, v, at);
        return;
      }
      if (Array.isArray(v) && r.items)
        v.forEach((x, i) => walk(r.items as Schema, x, `${at}/${i}`));
      else if (
        typeof v === "object" &&
        v !== null &&
        !Array.isArray(v) &&
        r.properties &&
        r.additionalProperties === undefined
      )
        for (const [k, x] of Object.entries(v)) {
          const sub = r.properties[k];
          if (sub) walk(sub, x, `${at}/${k}`);
          else out.push(`${at}/${k}`);
        }
    };
    walk(schema, json, "#");
    return [...new Set(out.map((p) => p.replace(/\/\d+(?=\/|$)/g, "/*")))].slice(0, 10);
  }
}
