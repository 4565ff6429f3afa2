// google-local: a stand-in for Google's Maps Booking API (real-time updates) and its OAuth
// token endpoint, for tests and `npm start`. See README.md beside this file.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tokenRequest } from "./token";
import { checkAvailabilityReplace, checkBookingPatch } from "./validate";

export interface GoogleLocalOptions {
  /** 0 or absent: any free port. */
  port?: number;
  host?: string;
  /** The service account's public key (SPKI PEM): token requests must be signed by its private key. */
  publicKeyPem: string;
  /**
   * The partner ids the API accepts (another is 403, as for a partner account the caller's
   * project is not registered with); absent or empty: any. A platform may call under several:
   * each salon its own partner account.
   */
  partnerIds?: readonly string[];
  /** Told of each API call as it is answered (the CLI logs them). */
  onCall?: (call: ReceivedCall) => void;
}

/** One call to the API, as it arrived and as it was answered. */
export interface ReceivedCall {
  method: string;
  path: string;
  updateMask: string | null;
  body: unknown;
  status: number;
  at: string;
}

/** A fault armed by PUT /_faults: the next `count` API calls whose path contains `pathContains`. */
interface Fault {
  status: number;
  count: number;
  pathContains: string;
}

export interface GoogleLocal {
  url: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

const NOTIFY = /^\/v1alpha\/notification\/partners\/([^/]+)\/bookings\/([^/]+)$/;
const REPLACE = /^\/v1alpha\/inventory\/partners\/([^/]+)\/availability:replace$/;
const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

const readBody = async (req: IncomingMessage) => {
  let text = "";
  req.setEncoding("utf8");
  for await (const chunk of req) text += String(chunk);
  return text;
};

const json = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(text);
};

/** Google's error body (google.rpc.Status in JSON). */
const googleError = (status: number, message: string) => ({
  error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" },
});

export async function createGoogleLocal(options: GoogleLocalOptions): Promise<GoogleLocal> {
  const calls: ReceivedCall[] = [];
  const faults: Fault[] = [];
  const issued = new Set<string>();
  let url = "";

  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    text: string,
    query: URLSearchParams,
  ) {
    const notify = req.method === "PATCH" ? NOTIFY.exec(path) : null;
    const replace = req.method === "POST" ? REPLACE.exec(path) : null;
    const updateMask = query.get("updateMask");
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* recorded as text, answered 400 below */
    }
    const answer = (status: number, out: unknown) => {
      const call = {
        method: req.method ?? "",
        path,
        updateMask,
        body,
        status,
        at: new Date().toISOString(),
      };
      calls.push(call);
      options.onCall?.(call);
      json(res, status, out);
    };
    if (!notify && !replace)
      return answer(404, googleError(404, `No such method: ${req.method} ${path}`));
    const fault = faults.find((f) => f.count > 0 && path.includes(f.pathContains));
    if (fault) {
      fault.count--;
      return answer(fault.status, googleError(fault.status, "fault injected by PUT /_faults"));
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!bearer || !issued.has(bearer))
      return answer(401, googleError(401, "Request had invalid authentication credentials."));
    const partnerId = decodeURIComponent((notify ?? replace)?.[1] ?? "");
    if (options.partnerIds?.length && !options.partnerIds.includes(partnerId))
      return answer(403, googleError(403, `The caller is not partner ${partnerId}.`));
    if (typeof body === "string")
      return answer(400, googleError(400, "Invalid JSON payload received."));
    const problems = notify
      ? checkBookingPatch(
          { partnerId, bookingId: decodeURIComponent(notify[2] ?? "") },
          updateMask,
          body,
        )
      : checkAvailabilityReplace(body);
    if (problems.length > 0) return answer(400, googleError(400, problems.join(" ")));
    return answer(200, body);
  }

  const server = createServer((req, res) => {
    void (async () => {
      const u = new URL(req.url ?? "/", "http://local");
      const text = await readBody(req);
      if (u.pathname === "/token" && req.method === "POST") {
        const out = await tokenRequest(
          new URLSearchParams(text),
          { publicKeyPem: options.publicKeyPem, audience: `${url}/token` },
          issued,
        );
        return json(res, out.status, out.body);
      }
      if (u.pathname === "/_requests" && req.method === "GET") {
        const contains = u.searchParams.get("path_contains") ?? "";
        return json(res, 200, { data: calls.filter((c) => c.path.includes(contains)) });
      }
      if (u.pathname === "/_faults" && req.method === "PUT") {
        const f = JSON.parse(text || "{}") as {
          status?: number;
          count?: number;
          path_contains?: string;
        };
        const fault = {
          status: f.status ?? 503,
          count: f.count ?? 1,
          pathContains: f.path_contains ?? "",
        };
        faults.push(fault);
        return json(res, 200, {
          status: fault.status,
          count: fault.count,
          path_contains: fault.pathContains,
        });
      }
      return api(req, res, u.pathname, text, u.searchParams);
    })().catch((error: unknown) => json(res, 500, googleError(500, String(error))));
  });
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const address = server.address() as AddressInfo;
  url = `http://${options.host ?? "127.0.0.1"}:${address.port}`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
