/**
 * The headers the API reads and sends beyond a route's own body, as reusable
 * OpenAPI components, and the rules that attach them to the operations where
 * the middleware that reads or sends them applies (docs/api.md, "Headers"):
 * - every operation: `X-Request-Id` in (optional) and out, `Server-Timing` out;
 * - every 429 and 503: `Retry-After`;
 * - operations that honour `Idempotency-Key` (the public API's POST, PUT and
 *   PATCH): the key in, `Idempotent-Replayed` on every answer a replay can
 *   repeat (all but 5xx), `Retry-After` on their 409 (the key's first request
 *   still running);
 * - the public API: `Vary: Origin` on every answer (its CORS middleware
 *   answers preflights on every path); on operations behind an API key also
 *   `Origin` in (a publishable key's page) and the CORS headers out.
 * - operations on one workspace's data (`HeaderRules.routed`): `D1-Bookmark`
 *   in (optional) and out, and a 503 `workspace_moving` (a move between
 *   shards pauses the workspace's writes, and refuses a shard it left);
 * Rules, not per-route declarations: a route added later gets its headers by
 * being what it is. A route with a header of its own (a download's
 * Content-Disposition) names the component with `headerRef`.
 */

const REQUEST_ID_PATTERN = "^[A-Za-z0-9._-]{8,64}$";
const MAX_IDEMPOTENCY_KEY = 255;

export const HEADER_COMPONENTS = {
  RequestId: {
    description:
      "The request's id: the request's own `X-Request-Id` when it matches `" +
      REQUEST_ID_PATTERN +
      "`, else a fresh UUID. Quote it when reporting a problem (a 500 carries it in its body too).",
    required: true,
    schema: { type: "string", pattern: REQUEST_ID_PATTERN },
  },
  ServerTiming: {
    description:
      'Where the time went: `total`, `d1;desc="N round trips"` (D1 calls one after another) and `calendar;desc="N calls"` (calendar calls one after another); what D1 did: `d1-statements;desc="K"` (statements sent), `d1-rows-read;desc="R"` (rows D1 read, its `rows_read`) and `d1-bytes-returned;desc="B"` (size of the values it returned). Absent from the answer to a refused API key.',
    schema: { type: "string" },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer", minimum: 1 },
  },
  IdempotentReplayed: {
    description:
      "`true` when this is the stored answer to an earlier request with the same Idempotency-Key and body, returned without acting again.",
    schema: { type: "string", enum: ["true"] },
  },
  AccessControlAllowOrigin: {
    description:
      "A publishable key's request from a page whose origin the key allows: that origin. Never sent to secret keys.",
    schema: { type: "string" },
  },
  AccessControlExposeHeaders: {
    description: "With Access-Control-Allow-Origin: the headers a page may read.",
    schema: { type: "string", example: "Retry-After,Idempotent-Replayed,Server-Timing" },
  },
  Vary: {
    description: "`Origin`: the answer may depend on the page's origin (CORS).",
    schema: { type: "string" },
  },
  ContentDisposition: {
    description: "A download: the file name to save it as.",
    schema: { type: "string", example: 'attachment; filename="booking-….ics"' },
  },
  ETag: {
    description:
      "A strong validator of the answer's content: send it back in If-None-Match to get a 304 while it is unchanged.",
    schema: { type: "string", example: '"3f2a9c0d41b7e6a85c2d19f0b4e7a613"' },
  },
  CacheControl: {
    description:
      "`private, no-cache`: a cache may keep it but must revalidate it (ETag) every time.",
    schema: { type: "string" },
  },
  D1Bookmark: {
    description:
      "How fresh the data this answer read or wrote is (opaque, names the workspace's shard). Send it back in `D1-Bookmark` and a later read sees at least this: a client reads its own writes even when reads are served by a replica.",
    schema: { type: "string" },
  },
  FeedTruncated: {
    description:
      "`true` when more bookings or blocked spots start in the feed's window than it carries (3,000 of each): the latest are left out.",
    schema: { type: "string", enum: ["true"] },
  },
} as const;

export type HeaderComponent = keyof typeof HEADER_COMPONENTS;

export const PARAMETER_COMPONENTS = {
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: `Your id for this request, echoed in the answer's X-Request-Id when it matches \`${REQUEST_ID_PATTERN}\`.`,
    schema: { type: "string", pattern: REQUEST_ID_PATTERN },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retry safe: the first request with a key acts and its answer (any but a 5xx) is kept for 24 hours; a retry with the same key and body gets that answer back with `Idempotent-Replayed: true`; the same key with another body is a 422; a retry while the first still runs is a 409 with Retry-After. Keys are scoped to the API key that sent them.",
    schema: { type: "string", minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY, pattern: "^[!-~]+$" },
  },
  D1Bookmark: {
    name: "D1-Bookmark",
    in: "header",
    required: false,
    description:
      "The `D1-Bookmark` of an earlier answer: a read (GET) is then answered from data at least that fresh (reads are otherwise served by any replica, possibly a moment behind). Ignored on writes (they use the primary) and when it names another shard or is not one.",
    schema: { type: "string", maxLength: 256 },
  },
  Origin: {
    name: "Origin",
    in: "header",
    required: false,
    description:
      "Sent by browsers. With a publishable key it must be one of the key's `allowed_origins` (else 403 `origin_not_allowed`), and the answer then carries the CORS headers.",
    schema: { type: "string" },
  },
} as const;

export type ParameterComponent = keyof typeof PARAMETER_COMPONENTS;

/** A reference to a header component, for a route's own response `headers`. */
export const headerRef = (name: HeaderComponent) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: ParameterComponent) => ({
  $ref: `#/components/parameters/${name}`,
});

/** Which header rules a document's operations follow (the middleware its router runs). */
export interface HeaderRules {
  /** POST, PUT and PATCH behind credentials honour Idempotency-Key. */
  idempotency: boolean;
  /** CORS: `Vary` on every answer; operations behind credentials answer a page's origin. */
  cors: boolean;
  /**
   * Whether an operation works on one workspace's data (on its shard): D1-Bookmark, and a
   * 503. Behind a key, or keyless through a link that names the workspace.
   */
  routed: (method: string, path: string) => boolean;
}

type Ref = { $ref: string };
interface ResponseObject {
  headers?: Record<string, unknown>;
}
export interface OperationObject {
  parameters?: unknown[];
  responses?: Record<string, ResponseObject>;
}

const WRITES = new Set(["post", "put", "patch"]);

/** Adds the header parameters and response headers the rules give `operation`. */
export function declareHeaders(
  method: string,
  path: string,
  operation: OperationObject,
  withCredentials: boolean,
  rules: HeaderRules,
): Set<HeaderComponent | `param:${ParameterComponent}`> {
  const routed = rules.routed(method, path);
  if (routed) declareMoving(operation);
  const used = new Set<HeaderComponent | `param:${ParameterComponent}`>();
  const params: Ref[] = [parameterRef("RequestId")];
  used.add("param:RequestId");
  const idempotent = rules.idempotency && withCredentials && WRITES.has(method);
  const cors = rules.cors && withCredentials;
  if (idempotent) {
    params.push(parameterRef("IdempotencyKey"));
    used.add("param:IdempotencyKey");
  }
  if (cors) {
    params.push(parameterRef("Origin"));
    used.add("param:Origin");
  }
  if (routed) {
    params.push(parameterRef("D1Bookmark"));
    used.add("param:D1Bookmark");
  }
  operation.parameters = [...(operation.parameters ?? []), ...params];

  const responses = operation.responses ?? {};
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status);
    const headers: Partial<Record<string, Ref>> = {
      "X-Request-Id": headerRef("RequestId"),
      "Server-Timing": headerRef("ServerTiming"),
    };
    used.add("RequestId").add("ServerTiming");
    if (code === 429 || code === 503 || (idempotent && code === 409)) {
      headers["Retry-After"] = headerRef("RetryAfter");
      used.add("RetryAfter");
    }
    if (idempotent && code < 500) {
      headers["Idempotent-Replayed"] = headerRef("IdempotentReplayed");
      used.add("IdempotentReplayed");
    }
    if (routed && code < 500) {
      headers["D1-Bookmark"] = headerRef("D1Bookmark");
      used.add("D1Bookmark");
    }
    if (rules.cors) {
      headers["Vary"] = headerRef("Vary");
      used.add("Vary");
    }
    if (cors) {
      headers["Access-Control-Allow-Origin"] = headerRef("AccessControlAllowOrigin");
      headers["Access-Control-Expose-Headers"] = headerRef("AccessControlExposeHeaders");
      used.add("AccessControlAllowOrigin").add("AccessControlExposeHeaders");
    }
    // A route's own declaration of a header wins over the rule's. A copy: the generator may
    // share one response object between operations that follow other rules.
    const declared = { ...headers, ...response.headers };
    responses[status] = { ...response, headers: declared };
    for (const value of Object.values(declared)) {
      const ref = (value as Partial<Ref>).$ref?.replace("#/components/headers/", "");
      if (ref && ref in HEADER_COMPONENTS) used.add(ref as HeaderComponent);
    }
  }
  return used;
}

const MOVING = "The workspace is being moved between databases; see Retry-After";

/**
 * A routed operation may answer 503 `workspace_moving`: added to its 503 when
 * it has one (its own codes kept), else a 503 of the error body its 401 uses.
 */
function declareMoving(operation: OperationObject) {
  const responses = (operation.responses ??= {}) as Record<
    string,
    ResponseObject & { description?: string; content?: unknown }
  >;
  const own = responses["503"];
  if (own) {
    responses["503"] = {
      ...own,
      description: `${own.description ?? ""} Also \`workspace_moving\`: ${MOVING.toLowerCase()}.`,
    };
    return;
  }
  const body = (responses["401"] ?? responses["404"] ?? responses["422"])?.content;
  if (body)
    responses["503"] = { description: `${MOVING}. Codes: \`workspace_moving\`.`, content: body };
}

/** The components `used` names, for the document's `components`. */
export function headerComponents(used: Set<string>) {
  const headers = Object.fromEntries(
    Object.entries(HEADER_COMPONENTS).filter(([name]) => used.has(name)),
  );
  const parameters = Object.fromEntries(
    Object.entries(PARAMETER_COMPONENTS).filter(([name]) => used.has(`param:${name}`)),
  );
  return { headers, parameters };
}
