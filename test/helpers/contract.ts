import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { SchemaValidators } from "../fuzz/lib/oracles";
import { type Api, type Doc, type Operation, operationsOf } from "../fuzz/lib/schema";

/**
 * Every 2xx JSON body a test receives through `send`/`sendDirect` is checked
 * against the response schema its own operation declares in the served
 * OpenAPI document (the same documents and validators the fuzz uses). The
 * documents are fetched once per test file, straight from the Worker's fetch
 * handler; validators are compiled once per schema.
 */

const BASES: Record<Api, string> = { public: "/api/public/v2", admin: "/api/admin/v1" };

interface Route {
  op: Operation;
  pattern: RegExp;
  /** Literal segments first: `/bookings/cart` wins over `/bookings/{booking_uuid}`. */
  literals: number;
}

interface Contract {
  validators: SchemaValidators;
  routes: Record<Api, Route[]>;
}

let contract: Promise<Contract> | null = null;

async function fetchDoc(api: Api): Promise<Doc> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://api.test${BASES[api]}/openapi.json`),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  if (res.status !== 200) throw new Error(`contract: ${BASES[api]}/openapi.json → ${res.status}`);
  return (await res.json()) as Doc;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function routesOf(api: Api, doc: Doc): Route[] {
  return operationsOf(api, doc)
    .map((op) => {
      const segments = op.path.split("/");
      const pattern = new RegExp(
        `^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? "[^/]+" : escape(s))).join("/")}$`,
      );
      const literals = segments.filter((s) => s && !s.startsWith("{")).length;
      return { op, pattern, literals };
    })
    .sort((a, b) => b.literals - a.literals);
}

export function loadContract(): Promise<Contract> {
  contract ??= (async () => {
    const docs: Record<Api, Doc> = {
      public: await fetchDoc("public"),
      admin: await fetchDoc("admin"),
    };
    return {
      validators: new SchemaValidators(docs),
      routes: { public: routesOf("public", docs.public), admin: routesOf("admin", docs.admin) },
    };
  })();
  contract.catch(() => (contract = null));
  return contract;
}

/**
 * Throws when a 2xx JSON body does not match the response schema of the
 * operation it answers (or the operation or its status is not documented).
 */
export async function checkResponse(method: string, url: string, status: number, json: unknown) {
  if (status < 200 || status >= 300) return;
  // CORS preflights are answered for every path and are no operation of either document.
  if (method.toUpperCase() === "OPTIONS") return;
  const path = url.split("?")[0] ?? url;
  const api = (Object.keys(BASES) as Api[]).find((a) => path.startsWith(`${BASES[a]}/`));
  if (!api) return;
  const relative = path.slice(BASES[api].length);
  if (relative === "/openapi.json") return;
  const { validators, routes } = await loadContract();
  const route = routes[api].find(
    (r) => r.op.method === method.toUpperCase() && r.pattern.test(relative),
  );
  const where = `${method.toUpperCase()} ${path} → ${status}`;
  if (!route) throw new Error(`${where}: no operation in the ${api} OpenAPI document`);
  if (!route.op.responses.has(status))
    throw new Error(`${where}: status not documented for ${route.op.key}`);
  const errors = validators.responseErrors(route.op, status, json);
  if (errors === null) {
    if (json !== null && json !== undefined)
      throw new Error(`${where}: a body where ${route.op.key} documents none`);
    return;
  }
  if (errors.length)
    throw new Error(
      `${where}: body does not match the response schema of ${route.op.key}:\n  ${errors.join("\n  ")}\n${JSON.stringify(json).slice(0, 500)}`,
    );
}
