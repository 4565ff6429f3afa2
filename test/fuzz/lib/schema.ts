/**
 * The OpenAPI 3.1 documents as the fuzz reads them at run time: operations,
 * their parameters and bodies, and JSON Schema helpers ($ref, limits). Nothing
 * here knows the API; every limit (maxItems, maxLength, minimum…) comes from
 * the served documents, so schema changes reach the fuzz without edits.
 */

export type Api = "public" | "admin";

export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  maxProperties?: number;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  description?: string;
  example?: unknown;
}

export interface Param {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Schema;
}

interface RawOperation {
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export interface Doc {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  api: Api;
  method: string;
  /** Path template as in the document, relative to the API base. */
  path: string;
  /** `POST public:/bookings`: stable name for statistics and reports. */
  key: string;
  pathParams: Param[];
  queryParams: Param[];
  /** The JSON request body schema, if the operation takes one. */
  body: Schema | null;
  /** Component name of the body (`CreateBooking`), for the few cross-field rules. */
  bodyName: string | null;
  /** Documented statuses and, where they have one, their JSON body schema. */
  responses: Map<number, Schema | null>;
  /** Non-JSON success bodies (iCal) are checked for status only. */
  jsonResponses: boolean;
}

export const refName = (s: Schema | undefined) => s?.$ref?.split("/").pop() ?? null;

const METHODS = new Set(["get", "post", "put", "patch", "delete"]);

/** Every operation of a document; the document routes themselves are skipped. */
export function operationsOf(api: Api, doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (path.endsWith("/openapi.json")) continue;
    for (const [method, op] of Object.entries(methods)) {
      if (!METHODS.has(method)) continue;
      const params = op.parameters ?? [];
      const body = op.requestBody?.content?.["application/json"]?.schema ?? null;
      const responses = new Map<number, Schema | null>();
      let jsonResponses = true;
      for (const [status, r] of Object.entries(op.responses ?? {})) {
        const content = r.content ?? {};
        const json = content["application/json"]?.schema;
        if (Number(status) < 300 && Object.keys(content).length > 0 && !json) jsonResponses = false;
        responses.set(Number(status), json ?? null);
      }
      out.push({
        api,
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${api}:${path}`,
        pathParams: params.filter((p) => p.in === "path"),
        queryParams: params.filter((p) => p.in === "query"),
        body,
        bodyName: refName(body ?? undefined),
        responses,
        jsonResponses,
      });
    }
  }
  return out;
}

export class Schemas {
  constructor(readonly docs: Record<Api, Doc>) {}

  /** Follows $ref and merges allOf, so callers see one plain schema. */
  resolve(api: Api, s: Schema): Schema {
    if (s.$ref) {
      const target = this.docs[api].components?.schemas?.[refName(s) ?? ""];
      if (!target) throw new Error(`fuzz: unresolved ${s.$ref}`);
      const { $ref: _ignored, ...rest } = s;
      return this.resolve(api, { ...target, ...rest });
    }
    if (s.allOf) {
      // Merged as a conjunction: properties and required lists of every part together.
      const { allOf, ...rest } = s;
      const parts = [rest, ...allOf.map((x) => this.resolve(api, x))];
      const merged: Schema = Object.assign({}, ...parts);
      const properties = Object.assign({}, ...parts.map((p) => p.properties ?? {}));
      const required = [...new Set(parts.flatMap((p) => p.required ?? []))];
      if (Object.keys(properties).length) merged.properties = properties;
      if (required.length) merged.required = required;
      // `{ allOf: [{ $ref }, { type: ["object", "null"] }] }`: the types must all hold.
      const types = parts.map((p) => p.type).filter((t) => t !== undefined);
      if (types.length > 1) {
        const sets = types.map((t) => new Set(Array.isArray(t) ? t : [t]));
        const common = [...(sets[0] ?? [])].filter((t) => sets.every((x) => x.has(t)));
        merged.type = common.length === 1 ? common[0] : common;
      }
      return merged;
    }
    return s;
  }
}

/** The first non-null type of a schema (`["string", "null"]` is a string). */
export function typeOf(s: Schema): string | undefined {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== "null");
  if (s.type) return s.type;
  if (s.properties) return "object";
  if (s.items) return "array";
  if (s.enum) return typeof s.enum[0];
  return undefined;
}

export const nullable = (s: Schema) => Array.isArray(s.type) && s.type.includes("null");

/**
 * A document's maxItems, or a small default where the schema has none yet
 * (valid bodies stay small; the "beyond" mutations still go past it).
 */
export const DEFAULT_MAX_ITEMS = 10;
export const maxItemsOf = (s: Schema) => s.maxItems ?? DEFAULT_MAX_ITEMS;
