import { beforeAll, describe, expect, it } from "vitest";
import { errorBodyProblems } from "../fuzz/lib/oracles";
import { type Api, type Doc, type Operation, operationsOf } from "../fuzz/lib/schema";
import { sendDirect } from "../helpers/direct";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, ADMIN_TOKEN, PUBLIC } from "../helpers/http";

/**
 * Table-driven over both served OpenAPI documents: every operation, except the
 * two the contract leaves open (the documents themselves and a booking's iCal
 * link, whose token is its credential), refuses a caller without credentials
 * and a caller with another workspace's credentials with 401 and the one error
 * body. Path parameters are random uuids (1 for integer ids), so nothing here
 * depends on a record existing. Sent through `sendDirect` (hundreds of calls).
 */

const BASES: Record<Api, string> = { public: PUBLIC, admin: ADMIN };

/** Operations callable without credentials, written down here independently of src/. */
const OPEN = new Set(["GET public:/bookings/{booking_uuid}/ical"]);

let docs: Record<Api, Doc>;
let ops: Operation[];
let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  const fetchDoc = async (api: Api) => {
    const res = await sendDirect(`${BASES[api]}/openapi.json`);
    expect(res.status).toBe(200);
    return res.body as Doc;
  };
  docs = { public: await fetchDoc("public"), admin: await fetchDoc("admin") };
  ops = [...operationsOf("public", docs.public), ...operationsOf("admin", docs.admin)];
  a = await createWorkspace();
  b = await createWorkspace();
});

function urlOf(op: Operation): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.pathParams.find((p) => p.name === name);
    const type = param?.schema?.type;
    return type === "integer" || type === "number" ? "1" : crypto.randomUUID();
  });
  return `${BASES[op.api]}${path}`;
}

async function call(op: Operation, headers: Record<string, string>) {
  return sendDirect(urlOf(op), {
    method: op.method,
    headers,
    ...(op.body ? { body: {} } : {}),
  });
}

/** Sends every guarded operation with these headers; lists each that is not a proper 401. */
async function refusals(api: Api, headers: Record<string, string>) {
  const wrong: string[] = [];
  const guarded = ops.filter((op) => op.api === api && !OPEN.has(op.key));
  for (const op of guarded) {
    const res = await call(op, headers);
    const problems = res.status === 401 ? errorBodyProblems(401, res.body, null) : [];
    if (res.status !== 401 || problems.length || res.body?.code !== "unauthenticated")
      wrong.push(`${op.key} → ${res.status} ${JSON.stringify(res.body)} ${problems.join("; ")}`);
  }
  return { count: guarded.length, wrong };
}

describe("every operation of both OpenAPI documents needs credentials", () => {
  it("walks a sizeable API (the documents were read, not an empty table)", () => {
    const publicOps = ops.filter((op) => op.api === "public");
    const adminOps = ops.filter((op) => op.api === "admin");
    expect(publicOps.length).toBeGreaterThan(30);
    expect(adminOps.length).toBeGreaterThan(10);
    for (const key of OPEN) expect(ops.map((op) => op.key)).toContain(key);
    // Every method in the table, not only reads.
    expect(new Set(ops.map((op) => op.method))).toEqual(
      new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]),
    );
  });

  it("public: 401 with the error body without any credentials", async () => {
    const { count, wrong } = await refusals("public", {});
    expect(count).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it("public: 401 with the Workspace header but no key", async () => {
    const { wrong } = await refusals("public", { workspace: a.id });
    expect(wrong).toEqual([]);
  });

  it("public: 401 with another workspace's key", async () => {
    const { wrong } = await refusals("public", {
      authorization: `Bearer ${b.apiKey}`,
      workspace: a.id,
    });
    expect(wrong).toEqual([]);
  });

  it("management: 401 without the admin token", async () => {
    const { count, wrong } = await refusals("admin", {});
    expect(count).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it("management: 401 with a workspace's API key or a wrong admin token", async () => {
    expect((await refusals("admin", { authorization: `Bearer ${a.apiKey}` })).wrong).toEqual([]);
    expect((await refusals("admin", { authorization: `Bearer ${ADMIN_TOKEN}x` })).wrong).toEqual(
      [],
    );
  });

  it("the open operations answer without credentials (and the guarded ones with them)", async () => {
    // The documents themselves.
    expect((await sendDirect(`${PUBLIC}/openapi.json`)).status).toBe(200);
    expect((await sendDirect(`${ADMIN}/openapi.json`)).status).toBe(200);
    // The iCal link: an unknown booking is a 404 (the token is the credential), never a 401.
    const ical = await sendDirect(`${PUBLIC}/bookings/${crypto.randomUUID()}/ical?token=x`);
    expect(ical.status).toBe(404);
    // With the right credentials the same calls get past authentication: never a 401.
    const authed: string[] = [];
    for (const op of ops.filter((o) => !OPEN.has(o.key))) {
      const headers: Record<string, string> =
        op.api === "public"
          ? { authorization: `Bearer ${a.apiKey}`, workspace: a.id }
          : { authorization: `Bearer ${ADMIN_TOKEN}` };
      if (op.method !== "GET") continue; // reads only: no writes of random data here
      const res = await call(op, headers);
      if (res.status === 401) authed.push(op.key);
    }
    expect(authed).toEqual([]);
  });
});
