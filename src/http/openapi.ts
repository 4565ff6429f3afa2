import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { OpenEnv, PublicEnv } from "./env";
import { validationError } from "../platform/errors";
import {
  declareHeaders,
  headerComponents,
  type HeaderRules,
  type OperationObject,
} from "./openapi-headers";
import { declarations, type Declaration, defineRoute, routeKey } from "./operations";
import { rateLimitError } from "./responses";
import { fieldErrorsFrom } from "./zod-errors";

/**
 * Every router validates through the same hook, so a zod failure anywhere
 * (params, query, body) becomes the one 422 body with field errors.
 */
export function createRouter<E extends OpenEnv | PublicEnv = PublicEnv>() {
  return new OpenAPIHono<E>({
    defaultHook: (result) => {
      if (!result.success) {
        throw validationError(fieldErrorsFrom(result.error));
      }
    },
  });
}

export type Router<E extends OpenEnv | PublicEnv = PublicEnv> = OpenAPIHono<E>;

/** What a router's OpenAPI document says beyond its routes. */
export interface DocumentSpec {
  title: string;
  description: string;
  version: string;
  /** The path the router is mounted at, relative to the host: the document's one server. */
  server: string;
  /** Security requirement of every operation (names of registered security schemes). */
  security: Record<string, string[]>;
  /** The header rules of the router's middleware (src/http/openapi-headers.ts). */
  headers: HeaderRules;
}

/** Only the fields a client needs to know it has an OpenAPI document. */
const OpenApiDocumentSchema = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }) })
  .openapi("OpenApiDocument");

type Document = ReturnType<Router["getOpenAPI31Document"]>;
type Operation = OperationObject & {
  operationId?: string;
  security?: Record<string, string[]>[];
};

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/**
 * Serves `GET /openapi.json` on `router`: the OpenAPI 3.1 document generated
 * from its routes' zod schemas, completed for tools (servers, a security
 * requirement on every operation, an operationId on every operation). The
 * document describes itself too, as an operation without credentials.
 * Generated once, on the first request, when every route is registered.
 */
export function serveDocument<E extends OpenEnv | PublicEnv>(
  router: Router<E>,
  spec: DocumentSpec,
) {
  const route = defineRoute({
    operationId: "getOpenApiDocument",
    keys: "none",
    method: "get",
    path: "/openapi.json",
    tags: ["OpenAPI"],
    summary: "This OpenAPI document",
    security: [],
    responses: {
      200: {
        content: { "application/json": { schema: OpenApiDocumentSchema } },
        description: "The OpenAPI 3.1 document of this API",
      },
      ...rateLimitError,
    },
  });
  let document: Document | undefined;
  router.openapi(route, (c) => {
    document ??= completeDocument(
      router.getOpenAPI31Document({
        openapi: "3.1.0",
        info: { title: spec.title, version: spec.version, description: spec.description },
      }),
      spec,
      declarations(router.openAPIRegistry),
    );
    return c.json(document as unknown as z.infer<typeof OpenApiDocumentSchema>, 200);
  });
}

/**
 * Adds servers, security, each route's declared operationId (and `security: []`
 * where it takes no keys) and the headers every operation reads and sends;
 * throws on an operation its route did not declare and on two operations with
 * one operationId.
 */
export function completeDocument(
  doc: Document,
  spec: DocumentSpec,
  declared: ReadonlyMap<string, Declaration | undefined>,
): Document {
  const seen = new Map<string, string>();
  const used = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const declaration = declared.get(routeKey(method, path));
      if (!declaration) throw new Error(`${where}: made without defineRoute (no operationId)`);
      operation.operationId = declaration.operationId;
      const other = seen.get(operation.operationId);
      if (other) throw new Error(`operationId ${operation.operationId}: ${other} and ${where}`);
      seen.set(operation.operationId, where);
      const withCredentials = declaration.keys !== "none";
      if (!withCredentials) operation.security = [];
      for (const name of declareHeaders(method, path, operation, withCredentials, spec.headers))
        used.add(name);
    }
  }
  const { headers, parameters } = headerComponents(used);
  // Plain JSON built in openapi-headers.ts; the document's types are the generator's.
  type Components = NonNullable<Document["components"]>;
  const components: Components = {
    ...doc.components,
    headers: { ...doc.components?.headers, ...(headers as Components["headers"]) },
    parameters: { ...doc.components?.parameters, ...(parameters as Components["parameters"]) },
  };
  return { ...doc, components, servers: [{ url: spec.server }], security: [spec.security] };
}
