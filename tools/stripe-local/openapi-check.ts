// Every /v1 request is checked against Stripe's published OpenAPI description (trimmed to the
// operations we use: test/fixtures/stripe/openapi.trimmed.json), the way Stripe refuses it:
// an unknown parameter, a missing one, a value of the wrong type. The same description checks
// the fake's own answers in the unit tests, so the fake cannot drift from Stripe's shapes.
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { invalidRequest, type StripeError } from "./errors";

export const TRIMMED_SPEC = new URL(
  "../../test/fixtures/stripe/openapi.trimmed.json",
  import.meta.url,
);

type Node = { [key: string]: unknown };

/** OpenAPI 3.0's `nullable: true` spelled as JSON Schema (null allowed), recursively. */
function denull(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(denull);
  if (!node || typeof node !== "object") return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = denull(value);
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    return out;
  }
  if (Array.isArray(out.anyOf)) {
    out.anyOf = [...out.anyOf, { type: "null" }];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

/**
 * Stripe refuses unknown parameters at any depth, though the description closes only the
 * top-level object of a request body: nested objects with named properties are closed here.
 */
function closeObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeObjects);
  if (!node || typeof node !== "object") return node;
  const out: Node = {};
  for (const [key, value] of Object.entries(node)) out[key] = closeObjects(value);
  if (
    out.properties &&
    typeof out.properties === "object" &&
    out.additionalProperties === undefined
  ) {
    out.additionalProperties = false;
  }
  return out;
}

interface SpecOperation {
  parameters?: { name: string; in: string; required?: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

export class OpenApiCheck {
  private readonly ajv: Ajv;
  private readonly strictAjv: Ajv;
  private readonly requests = new Map<string, ValidateFunction>();
  readonly spec: {
    paths: Record<string, Record<string, SpecOperation>>;
    components: { schemas: Node };
  };

  constructor(specText = readFileSync(TRIMMED_SPEC, "utf8")) {
    this.spec = denull(JSON.parse(specText)) as OpenApiCheck["spec"];
    const options = { strict: false, validateFormats: false, allErrors: true } as const;
    // Requests come form-encoded: every value a string until the schema says otherwise.
    this.ajv = new Ajv({ ...options, coerceTypes: "array" });
    this.strictAjv = new Ajv(options);
    for (const ajv of [this.ajv, this.strictAjv]) {
      ajv.addSchema({ $id: "stripe.json", components: this.spec.components });
    }
  }

  private requestSchema(method: string, path: string): unknown {
    const op = this.spec.paths[path]?.[method];
    if (!op) throw new Error(`${method} ${path} is not in the trimmed description`);
    const form = op.requestBody?.content["application/x-www-form-urlencoded"]?.schema as
      Node | undefined;
    const query = (op.parameters ?? []).filter((p) => p.in === "query");
    if (method === "get" || !form) {
      return {
        type: "object",
        additionalProperties: false,
        properties: Object.fromEntries(query.map((q) => [q.name, q.schema])),
        required: query.filter((q) => q.required).map((q) => q.name),
      };
    }
    return form;
  }

  private compile(ajv: Ajv, schema: unknown): ValidateFunction {
    // Refs in the description point at its own components: resolve them in stripe.json.
    const text = JSON.stringify(schema).replaceAll('"#/components/', '"stripe.json#/components/');
    return ajv.compile(JSON.parse(text) as Node);
  }

  /** Coerces `params` in place as the schema says; Stripe's 400 for the first problem, or null. */
  checkRequest(method: string, path: string, params: Node): StripeError | null {
    const key = `${method} ${path}`;
    let validate = this.requests.get(key);
    if (!validate) {
      validate = this.compile(this.ajv, closeObjects(this.requestSchema(method, path)));
      this.requests.set(key, validate);
    }
    if (validate(params)) return null;
    return toStripeError(validate.errors ?? [], params);
  }

  /** Problems of an answer against a response schema (`charge`, `event`, …), as text. */
  checkObject(schemaName: string, value: unknown): string[] {
    const validate = this.compile(this.strictAjv, { $ref: `#/components/schemas/${schemaName}` });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
  }
}

/** `/line_items/0/price_data` → `line_items[0][price_data]`, as Stripe names params. */
const paramName = (pointer: string, extra?: string) => {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (extra !== undefined) parts.push(extra);
  const [first = "", ...rest] = parts;
  return first + rest.map((p) => `[${p}]`).join("");
};

const valueAt = (root: unknown, pointer: string): unknown =>
  pointer
    .split("/")
    .slice(1)
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as Node)[key] : undefined),
      root,
    );

/** The error Stripe would give: unknown parameter first, then missing, then the deepest other. */
function toStripeError(errors: ErrorObject[], params: Node): StripeError {
  // anyOf branches that did not apply report their own problems: an unknown parameter is one
  // only if no branch took that object.
  const unknown = errors.find((e) => e.keyword === "additionalProperties");
  if (unknown) {
    const name = paramName(unknown.instancePath, String(unknown.params.additionalProperty));
    return invalidRequest(`Received unknown parameter: ${name}`, name, "parameter_unknown");
  }
  const missing = errors.find((e) => e.keyword === "required");
  if (missing) {
    const name = paramName(missing.instancePath, String(missing.params.missingProperty));
    return invalidRequest(`Missing required param: ${name}.`, name, "parameter_missing");
  }
  const deepest = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  const name = paramName(deepest?.instancePath ?? "");
  const value = valueAt(params, deepest?.instancePath ?? "");
  if (deepest?.keyword === "type") {
    const type = String(deepest.params.type).split(",")[0] ?? "string";
    const label = type === "integer" ? "integer" : type === "boolean" ? "boolean" : type;
    return invalidRequest(`Invalid ${label}: ${String(value)}`, name, `parameter_invalid_${label}`);
  }
  if (deepest?.keyword === "enum" || deepest?.keyword === "anyOf") {
    return invalidRequest(
      `Invalid ${name}: ${JSON.stringify(value)} is not an accepted value`,
      name,
      value === "" ? "parameter_invalid_empty" : "parameter_invalid_string",
    );
  }
  return invalidRequest(
    `Invalid ${name}: ${deepest?.message ?? "invalid value"}`,
    name,
    "parameter_invalid_string",
  );
}
