import type { Alternative } from "./types";

/** The API answered with an error body. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string[]>,
    readonly alternatives: Alternative[] | null,
  ) {
    super(message);
  }
}

/** The request never got an answer (offline, DNS, connection reset). */
export class NetworkFailure extends Error {}

export interface Client {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  /** `keepalive` lets the request outlive the page (a hold released as the visitor leaves). */
  del(path: string, keepalive?: boolean): Promise<void>;
}

const PUBLIC_BASE = "/api/public/v2";

interface ErrorBody {
  code?: string;
  message?: string;
  errors?: Record<string, string[]>;
  alternatives?: Alternative[];
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    // A proxy's HTML error page: the status alone must do.
    return null;
  }
}

/** The booking widget's client: the workspace's publishable key. */
export const createClient = (workspace: string, key: string, origin = ""): Client =>
  publicClient({ Authorization: `Bearer ${key}`, Workspace: workspace }, origin);

/** The manage page's client: the link's token in the path is all it holds, no key. */
export const keylessClient = (origin = ""): Client => publicClient({}, origin);

function publicClient(auth: Record<string, string>, origin: string): Client {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    keepalive = false,
  ): Promise<T> {
    const headers: Record<string, string> = { ...auth };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let res: Response;
    try {
      res = await fetch(`${origin}${PUBLIC_BASE}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        keepalive,
      });
    } catch (e) {
      throw new NetworkFailure(e instanceof Error ? e.message : String(e));
    }
    const text = await res.text().catch(() => "");
    const json = parseJson(text);
    if (!res.ok) {
      const err = (json ?? {}) as ErrorBody;
      throw new ApiFailure(
        res.status,
        err.code ?? "unknown",
        err.message ?? `The server answered ${res.status}.`,
        err.errors ?? {},
        Array.isArray(err.alternatives) ? err.alternatives : null,
      );
    }
    return json as T;
  }
  return {
    get: (path) => call("GET", path),
    post: (path, body) => call("POST", path, body),
    del: async (path, keepalive) => {
      await call("DELETE", path, undefined, keepalive);
    },
  };
}

/**
 * An optional endpoint another part of the API may not offer (yet): the widget then
 * goes without it instead of failing.
 */
export const isUnavailable = (e: unknown) =>
  e instanceof ApiFailure && (e.status === 404 || e.status === 405 || e.status === 403);
