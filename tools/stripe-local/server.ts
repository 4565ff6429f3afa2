// stripe-local: a Stripe-compatible test server (the subset of Stripe's API the Worker uses).
// See README.md beside this file.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import qs from "qs";
import { payCheckout } from "./checkout";
import type { Ctx } from "./context";
import { handleControl } from "./control";
import { apiError, StripeError } from "./errors";
import { API_VERSION, NO_REQUEST } from "./events";
import { closedPage, notFoundPage, paymentPage } from "./hosted-page";
import { IdempotencyKeys, type StoredAnswer } from "./idempotency";
import { newId } from "./ids";
import { OpenApiCheck } from "./openapi-check";
import { matchRoute } from "./routes/index";
import type { Params } from "./routes/params";
import { State, workspaceOf, type RequestRecord } from "./state";
import { Outbox, type OutboxOptions } from "./webhooks-out";

export interface StripeLocalOptions {
  /** 0 or absent: any free port. */
  port?: number;
  host?: string;
  webhookSecret: string;
  /** Where events are POSTed; without it they wait for GET /_local/deliveries. */
  webhookUrl?: string;
  retryDelaysMs?: number[];
  onDeliveryAttempt?: OutboxOptions["onAttempt"];
}

export interface StripeLocal {
  url: string;
  state: State;
  outbox: Outbox;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  req.setEncoding("utf8");
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
};

const send = (
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
) => {
  res.writeHead(status, {
    "content-length": String(new TextEncoder().encode(body).length),
    ...headers,
  });
  res.end(body);
};

const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) =>
  send(res, status, JSON.stringify(body, null, 2), {
    "content-type": "application/json",
    ...headers,
  });

const sendHtml = (res: ServerResponse, status: number, html: string) =>
  send(res, status, html, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
  });

/** The workspace a request is about: its own metadata, or the object it names or answers. */
function requestWorkspace(
  state: State,
  params: Params,
  path: Record<string, string>,
  body: unknown,
) {
  const nested = ["payment_intent_data", "setup_intent_data"].map((k) => workspaceOf(params[k]));
  const named = [...Object.values(path), params.payment_intent, params.customer]
    .filter((id): id is string => typeof id === "string")
    .map((id) => workspaceOf(state.objects.get(id)));
  const error =
    body && typeof body === "object"
      ? (body as { error?: { payment_intent?: unknown } }).error
      : undefined;
  return (
    [
      workspaceOf(params),
      ...nested,
      workspaceOf(body),
      workspaceOf(error?.payment_intent),
      ...named,
    ].find((ws) => ws !== null) ?? null
  );
}

export async function createStripeLocal(options: StripeLocalOptions): Promise<StripeLocal> {
  const host = options.host ?? "127.0.0.1";
  const state = new State();
  const outbox = new Outbox({
    secret: options.webhookSecret,
    url: options.webhookUrl,
    retryDelaysMs: options.retryDelaysMs,
    onAttempt: options.onDeliveryAttempt,
  });
  const check = new OpenApiCheck();
  const keys = new IdempotencyKeys();
  let baseUrl = "";
  const ctxFor = (request: Ctx["request"]): Ctx => ({ state, outbox, baseUrl, request });

  const takeFault = (method: string, pathname: string, workspace: () => string | null) => {
    const fault = state.faults.find(
      (f) =>
        f.method === method &&
        pathname.startsWith(f.path) &&
        f.times > 0 &&
        (f.workspace === null || f.workspace === workspace()),
    );
    if (!fault) return null;
    fault.times -= 1;
    state.faults = state.faults.filter((f) => f.times > 0);
    return fault;
  };

  async function api(req: IncomingMessage, res: ServerResponse, url: URL, text: string) {
    const method = req.method ?? "GET";
    const requestId = newId("req", 14);
    const headers: Record<string, string> = {
      "request-id": requestId,
      "stripe-version": String(req.headers["stripe-version"] ?? API_VERSION),
    };
    const auth = String(req.headers.authorization ?? "");
    const secret = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
    if (!/^(sk|rk)_test_\S+$/.test(secret)) {
      sendJson(
        res,
        401,
        {
          error: {
            type: "invalid_request_error",
            message: secret
              ? `Invalid API Key provided: ${secret.slice(0, 8)}****`
              : "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth.",
          },
        },
        headers,
      );
      return;
    }
    const match = matchRoute(method, url.pathname);
    if (!match) {
      sendJson(
        res,
        404,
        {
          error: {
            type: "invalid_request_error",
            message: `Unrecognized request URL (${method}: ${url.pathname}). stripe-local serves only the operations the Worker uses (tools/stripe-local/README.md).`,
          },
        },
        headers,
      );
      return;
    }
    const params = qs.parse(method === "GET" ? url.search.slice(1) : text, {
      depth: 20,
      arrayLimit: 100,
      parameterLimit: 2_000,
    }) as Params;
    const key =
      method === "POST" ? ((req.headers["idempotency-key"] as string | undefined) ?? null) : null;
    const record: RequestRecord = {
      id: requestId,
      method,
      path: url.pathname,
      idempotency_key: key,
      params: structuredClone(params),
      status: 0,
      violation: null,
      replayed: false,
      workspace: null,
      at: Date.now(),
    };
    state.requests.push(record);
    if (key) headers["idempotency-key"] = key;

    const answer = await (async (): Promise<StoredAnswer> => {
      const invalid = check.checkRequest(match.route.method, match.route.path, params);
      if (invalid) {
        record.violation = invalid.message;
        return { status: invalid.status, body: invalid.body };
      }
      if (key) {
        try {
          const stored = keys.begin(key, method, url.pathname, params);
          if (stored) {
            record.replayed = true;
            headers["idempotent-replayed"] = "true";
            return stored;
          }
        } catch (error) {
          if (error instanceof StripeError) return { status: error.status, body: error.body };
          throw error;
        }
      }
      const fault = takeFault(method, url.pathname, () =>
        requestWorkspace(state, params, match.path, undefined),
      );
      if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
      if (fault?.when === "before") {
        if (key) keys.release(key);
        return { status: 500, body: apiError().body };
      }
      let done: StoredAnswer;
      try {
        done = {
          status: 200,
          body: match.route.handle(
            {
              ...ctxFor({ id: requestId, idempotency_key: key }),
              declines: fault?.when === "decline",
            },
            params,
            match.path,
          ),
        };
      } catch (error) {
        if (!(error instanceof StripeError)) {
          if (key) keys.release(key);
          throw error;
        }
        done = { status: error.status, body: error.body };
      }
      // Stored as JSON text is: a replay is the answer as it was, not the object as it is now.
      done = { status: done.status, body: JSON.parse(JSON.stringify(done.body)) };
      if (key) keys.finish(key, done);
      if (fault?.when === "after") return { status: 500, body: apiError().body };
      return done;
    })();
    record.status = answer.status;
    record.workspace = requestWorkspace(state, params, match.path, answer.body);
    sendJson(res, answer.status, answer.body, headers);
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, id: string, text: string) {
    const session = state.session(id);
    const extras = state.sessionExtras.get(id);
    if (!session || !extras) return sendHtml(res, 404, notFoundPage());
    if (req.method === "POST") {
      const form = new URLSearchParams(text);
      const outcome = payCheckout(ctxFor(NO_REQUEST), id, {
        number: form.get("card") ?? "",
        name: form.get("name"),
        expiry: form.get("expiry"),
      });
      if (outcome.status === "complete") {
        res.writeHead(303, { location: outcome.redirect }).end();
        return;
      }
      if (outcome.status === "declined" || outcome.status === "incorrect") {
        return sendHtml(
          res,
          200,
          paymentPage(session, extras, outcome.message, { name: form.get("name") ?? "" }),
        );
      }
    }
    if (session.status !== "open") return sendHtml(res, 200, closedPage(session));
    return sendHtml(res, 200, paymentPage(session, extras, null));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://localhost");
    const text = await readBody(req);
    if (url.pathname.startsWith("/v1/")) return api(req, res, url, text);
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (page && (req.method === "GET" || req.method === "POST")) {
      return hosted(req, res, decodeURIComponent(page[1] ?? ""), text);
    }
    if (url.pathname.startsWith("/_local/")) {
      let body: Record<string, unknown> = {};
      if (text) {
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return sendJson(res, 400, { error: { message: "the control API takes JSON" } });
        }
      }
      const answer = handleControl(ctxFor(NO_REQUEST), req.method ?? "GET", url, body);
      return sendJson(res, answer.status, answer.body);
    }
    return sendJson(res, 404, {
      error: {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      },
    });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error("stripe-local:", error);
      if (!res.headersSent) sendJson(res, 500, apiError().body);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://${host}:${port}`;
  return {
    url: baseUrl,
    state,
    outbox,
    close: () =>
      new Promise<void>((resolve) => {
        outbox.close();
        for (const extras of state.sessionExtras.values())
          if (extras.timer) clearTimeout(extras.timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
