import { env } from "cloudflare:workers";
import fc from "fast-check";
import { arbitraryFor, type Ctx, fromPool, kindFor, USED_UP } from "./arbitraries";
import {
  diffCounts,
  exchange,
  type Exchange,
  isLoopbackUrl,
  nonLoopbackWebhooks,
  ORIGIN,
  rowCounts,
} from "./client";
import { ADMIN_BASE, adminToken, buildWorld, issueKey, learnBooking, PUBLIC_BASE } from "./fixture";
import { FIXUPS } from "./fixups";
import { choose, mutateBody, type RawBody, wholeBody } from "./mutations";
import { errorBodyProblems, SchemaValidators } from "./oracles";
import { type Api, type Doc, type Operation, operationsOf, type Schema, Schemas } from "./schema";
import type { Summary } from "./summary";
import { allOf, forget, type Kind, remember, type World } from "./world";

/**
 * One fuzz shard: builds its fixture, reads both OpenAPI documents, then runs
 * `passes` passes. A pass visits every operation in a random order and sends
 * valid requests (which must succeed often enough to reach the success paths)
 * and mutated ones. Every answer is judged:
 *
 * hard (the test fails, with the request): a 5xx or an uncaught exception; an
 * error body off the one shape; rows left behind by a rejected request; rows
 * written by a GET; a 2xx body that breaks its response schema; a 2xx for a
 * path naming another workspace's record or for broken credentials.
 *
 * soft (reported, counted): undocumented statuses, bodies accepted although
 * their schema rejects them, more than 3 D1 round trips, missing headers,
 * response fields the schema does not document.
 */

export interface FuzzOptions {
  shard: number;
  passes: number;
  seed: number;
  /** Stop starting new passes after this long (ms); the pass under way finishes. */
  timeLimitMs?: number;
}

interface Case {
  op: Operation;
  kind: "valid" | "body" | "whole" | "path" | "query" | "auth" | "method" | "idempotency";
  label: string;
  method: string;
  path: string;
  query: string;
  raw: RawBody | null;
  headers: Record<string, string>;
  /** The request names another workspace's record, or has broken credentials: a 2xx is a leak. */
  mustNotSucceed: "foreign" | "auth" | null;
  /** An id the fuzz made up (unknown, malformed): a 2xx is only reported. */
  shouldNotSucceed: boolean;
}

export interface Finding {
  kind: string;
  op: string;
  request: string;
  response: string;
  detail: string;
}

const KEY_BUDGET = 250;
const MAX_EXAMPLES = 3;

export class Fuzzer {
  private world!: World;
  private schemas!: Schemas;
  private validators!: SchemaValidators;
  private ops: Operation[] = [];
  private counts: Record<string, number> = {};
  private requests = 0;
  private setupRequests = 0;
  private readonly byStatus: Record<string, number> = {};
  private readonly byCase: Record<string, number> = {};
  private readonly byMutation: Record<string, number> = {};
  private readonly passMs: number[] = [];
  private readonly opStats = new Map<string, { valid: number; validOk: number; ok: number }>();
  readonly violations: Finding[] = [];
  private readonly violationKeys = new Map<string, number>();
  private readonly soft = new Map<
    string,
    { count: number; examples: Finding[]; byOp: Record<string, number> }
  >();
  private readonly refusals: Record<string, number> = {};
  private readonly hardCounts: Record<string, number> = {};
  private lastIdempotent: {
    key: string;
    body: string | undefined;
    op: Operation;
    path: string;
    status: number;
  } | null = null;

  constructor(readonly options: FuzzOptions) {}

  async setup() {
    const fetchDoc = async (base: string, auth: Record<string, string>) => {
      const res = await exchange(new Request(`${ORIGIN}${base}/openapi.json`, { headers: auth }));
      this.setupRequests++;
      if (res.status !== 200) throw new Error(`fuzz: ${base}/openapi.json → ${res.status}`);
      return res.json as Doc;
    };
    this.world = await buildWorld(this.options.shard);
    const docs: Record<Api, Doc> = {
      public: await fetchDoc(PUBLIC_BASE, {}),
      admin: await fetchDoc(ADMIN_BASE, { authorization: `Bearer ${adminToken()}` }),
    };
    this.schemas = new Schemas(docs);
    this.validators = new SchemaValidators(docs);
    this.ops = [...operationsOf("public", docs.public), ...operationsOf("admin", docs.admin)];
    for (const op of this.ops) this.opStats.set(op.key, { valid: 0, validOk: 0, ok: 0 });
    this.counts = await rowCounts();
  }

  get operations() {
    return this.ops;
  }

  async run(): Promise<Summary> {
    const started = Date.now();
    await this.setup();
    let passes = 0;
    await fc.assert(
      fc.asyncProperty(fc.gen(), async (g) => {
        if (
          this.options.timeLimitMs !== undefined &&
          Date.now() - started > this.options.timeLimitMs
        )
          return;
        passes++;
        const t = Date.now();
        await this.pass(g);
        this.passMs.push(Date.now() - t);
      }),
      {
        numRuns: this.options.passes,
        seed: this.options.seed,
        endOnFailure: true,
        // The default report prints every drawn value of the pass; the seed and the error say enough.
        asyncReporter: async (details) => {
          if (details.failed)
            throw new Error(
              `fuzz harness failed (seed ${details.seed}, path ${details.counterexamplePath}): ${String((details.errorInstance as Error)?.stack ?? details.errorInstance)}`,
            );
        },
      },
    );
    const leaked = await nonLoopbackWebhooks();
    if (leaked.length)
      this.hard(
        "webhook off this machine",
        this.ops[0] as Operation,
        "(final D1 check)",
        "",
        leaked.join(", "),
      );
    return this.summary(passes, Date.now() - started);
  }

  // -------------------------------------------------------------------------
  // A pass

  private async pass(g: fc.GeneratorValue) {
    // A random order (drawn as indices, so a report stays short).
    const order = g(fc.shuffledSubarray, [...this.ops.keys()], {
      minLength: this.ops.length,
      maxLength: this.ops.length,
    }).map((i) => this.ops[i] as Operation);
    for (const op of order) {
      const cases: Case[] = [this.validCase(g, op), this.validCase(g, op)];
      if (op.body) {
        cases.push(this.bodyCase(g, op, "any"), this.bodyCase(g, op, "arrays"));
        const base = this.validCase(g, op);
        const raw = wholeBody(g, this.bodyValue(base));
        cases.push({ ...base, kind: "whole", raw, label: raw.label });
      }
      if (op.pathParams.length) cases.push(this.pathCase(g, op));
      if (op.queryParams.length) cases.push(this.queryCase(g, op));
      // Idempotency-Key is a public API feature (POST/PUT/PATCH).
      const keyed = op.api === "public" && ["POST", "PUT", "PATCH"].includes(op.method);
      const extra = choose(g, ["auth", "method", ...(keyed ? ["idempotency"] : [])] as const);
      if (extra === "auth" && !op.path.endsWith("/ical")) cases.push(this.authCase(g, op));
      if (extra === "method") cases.push(this.methodCase(g, op));
      if (extra === "idempotency") cases.push(...this.idempotencyCases(g, op));
      for (const c of cases) await this.send(c);
    }
  }

  private ctx(op: Operation, bodyName: string | null): Ctx {
    return { api: op.api, world: this.world, schemas: this.schemas, bodyName, path: op.path };
  }

  private pick(g: fc.GeneratorValue, kind: Kind, fixedOnly = false) {
    const pool = this.world.shop.pools[kind];
    if (fixedOnly && pool.fixed.length) return choose(g, pool.fixed);
    return g(() => fromPool(pool, USED_UP.has(kind) ? "created" : "fixed"));
  }

  private validBody(g: fc.GeneratorValue, op: Operation): unknown {
    if (!op.body) return undefined;
    const body = g(() => arbitraryFor(op.body as Schema, this.ctx(op, op.bodyName)));
    const fix = op.bodyName ? FIXUPS[op.bodyName] : undefined;
    if (fix && typeof body === "object" && body !== null)
      fix(body as Record<string, unknown>, g, (k, fixedOnly) => this.pick(g, k, fixedOnly));
    return body;
  }

  private validQuery(g: fc.GeneratorValue, op: Operation): Record<string, unknown> {
    if (!op.queryParams.length) return {};
    const schema: Schema = {
      type: "object",
      properties: Object.fromEntries(
        op.queryParams.map((p) => [p.name, p.schema ?? { type: "string" }]),
      ),
      required: op.queryParams.filter((p) => p.required).map((p) => p.name),
    };
    const name = `query:${op.key}`;
    const q = g(() => arbitraryFor(schema, this.ctx(op, name))) as Record<string, unknown>;
    FIXUPS[name]?.(q, g, (k, fixedOnly) => this.pick(g, k, fixedOnly));
    return q;
  }

  /** Real ids for every path parameter; the iCal link takes a booking together with its token. */
  private validPath(g: fc.GeneratorValue, op: Operation, query: Record<string, unknown>): string {
    let ical: [string, string] | null = null;
    if (op.path.endsWith("/ical") && this.world.icalTokens.size) {
      ical = choose(g, [...this.world.icalTokens.entries()]);
      query.token = ical[1];
    }
    return op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (ical && name === "booking_uuid") return ical[0];
      const kind = kindFor(name, this.ctx(op, null), false);
      return encodeURIComponent(kind ? this.pick(g, kind) : "x");
    });
  }

  private validCase(g: fc.GeneratorValue, op: Operation): Case {
    const query = this.validQuery(g, op);
    const path = this.validPath(g, op, query);
    const body = this.validBody(g, op);
    // A staffer change may name one of the booking's own services only.
    if (op.bodyName === "ChangeBookingStaffer" && body && typeof body === "object") {
      const booking = decodeURIComponent(path.split("/")[2] ?? "");
      const services = this.world.bookingServices.get(booking);
      const b = body as Record<string, unknown>;
      if (b.service_uuid !== undefined && services?.length) b.service_uuid = choose(g, services);
    }
    return {
      op,
      kind: "valid",
      label: "valid",
      method: op.method,
      path,
      query: encodeQuery(query),
      raw:
        body === undefined
          ? null
          : { body: JSON.stringify(body), type: "application/json", label: "valid" },
      headers: {},
      mustNotSucceed: null,
      shouldNotSucceed: false,
    };
  }

  private bodyValue(c: Case): unknown {
    return c.raw?.body ? JSON.parse(c.raw.body) : {};
  }

  private bodyCase(g: fc.GeneratorValue, op: Operation, focus: "any" | "arrays"): Case {
    const base = this.validCase(g, op);
    const mutate = (body: unknown, f: "any" | "arrays") =>
      mutateBody(g, body, op.body as Schema, this.ctx(op, op.bodyName), this.world, f);
    let raw = mutate(this.bodyValue(base), focus);
    // Now and then a second change on top of the first.
    if (raw.type === "application/json" && raw.body && g(fc.nat, { max: 3 }) === 0) {
      const second = mutate(JSON.parse(raw.body), "any");
      raw = { ...second, label: `${raw.label} + ${second.label}` };
    }
    return { ...base, kind: "body", raw, label: raw.label };
  }

  private pathCase(g: fc.GeneratorValue, op: Operation): Case {
    const base = this.validCase(g, op);
    const params = op.pathParams.map((p) => p.name);
    const target = choose(g, params);
    const kind = kindFor(target, this.ctx(op, null), false);
    const foreign =
      kind && !(op.api === "admin" && target === "ws") ? allOf(this.world.foreign.pools[kind]) : [];
    const variants: { label: string; value: string; foreign?: boolean; unknown?: boolean }[] = [
      ...foreign.slice(0, 3).map((value) => ({ label: "foreign id", value, foreign: true })),
      { label: "unknown uuid", value: crypto.randomUUID(), unknown: true },
      { label: "not an id", value: "not-an-id", unknown: true },
      { label: "zero", value: "0", unknown: true },
      { label: "negative", value: "-1", unknown: true },
      { label: "400 digits", value: "9".repeat(400), unknown: true },
      { label: "encoded NUL", value: "%00", unknown: true },
      { label: "encoded dots", value: "%2e%2e", unknown: true },
      { label: "encoded slash", value: "a%2Fb", unknown: true },
      { label: "emoji", value: "%F0%9F%99%82", unknown: true },
      { label: "trailing space", value: `${crypto.randomUUID()}%20`, unknown: true },
    ];
    if (kind) {
      const real = this.pick(g, kind);
      variants.push({ label: "upper-case id", value: encodeURIComponent(real.toUpperCase()) });
    }
    const v = choose(g, variants);
    const path = op.path.replace(/\{(\w+)\}/g, (whole, name: string) =>
      name === target ? v.value : (base.path.split("/")[op.path.split("/").indexOf(whole)] ?? ""),
    );
    return {
      ...base,
      kind: "path",
      label: `${v.label} as ${target}`,
      path,
      mustNotSucceed: v.foreign ? "foreign" : null,
      shouldNotSucceed: v.unknown === true,
    };
  }

  private queryCase(g: fc.GeneratorValue, op: Operation): Case {
    const base = this.validCase(g, op);
    const params = new URLSearchParams(base.query);
    const name = choose(g, [...op.queryParams.map((p) => p.name), "__unknown__", "__repeat__"]);
    const bad = choose(g, [
      "-1",
      "0",
      "abc",
      "9".repeat(30),
      "",
      "1.5",
      "true",
      "\u0000",
      "2030-02-30",
      "z".repeat(5000),
      "1e3",
      "NaN",
      "%",
    ]);
    if (name === "__unknown__") params.set("unknown_param", bad);
    else if (name === "__repeat__") {
      const first = op.queryParams[0]?.name ?? "x";
      params.append(first, bad);
      params.append(first, bad);
    } else params.set(name, bad);
    return {
      ...base,
      kind: "query",
      label: `${name}=${JSON.stringify(bad.slice(0, 20))}`,
      query: params.toString(),
    };
  }

  private authCase(g: fc.GeneratorValue, op: Operation): Case {
    const base = this.validCase(g, op);
    const shop = this.world.shop;
    const foreign = this.world.foreign;
    const variants: { label: string; headers: Record<string, string> }[] =
      op.api === "public"
        ? [
            { label: "no credentials", headers: { authorization: "", workspace: "" } },
            { label: "unknown key", headers: { authorization: "Bearer sk_live_fuzz_unknown" } },
            { label: "malformed bearer", headers: { authorization: "Bearer" } },
            { label: "basic auth", headers: { authorization: "Basic YTpi" } },
            {
              label: "foreign key",
              headers: { authorization: `Bearer ${foreign.keys[0]?.key}`, workspace: shop.ws },
            },
            { label: "foreign workspace header", headers: { workspace: foreign.ws } },
            { label: "no workspace header", headers: { workspace: "" } },
            { label: "admin token as key", headers: { authorization: `Bearer ${adminToken()}` } },
          ]
        : [
            { label: "no credentials", headers: { authorization: "" } },
            {
              label: "wrong admin token",
              headers: { authorization: "Bearer not-the-admin-token" },
            },
            {
              label: "api key as admin token",
              headers: { authorization: `Bearer ${shop.keys[0]?.key}` },
            },
            {
              label: "admin token prefix",
              headers: { authorization: `Bearer ${adminToken().slice(0, -1)}` },
            },
          ];
    const v = choose(g, variants);
    return { ...base, kind: "auth", label: v.label, headers: v.headers, mustNotSucceed: "auth" };
  }

  private methodCase(g: fc.GeneratorValue, op: Operation): Case {
    const base = this.validCase(g, op);
    const defined = new Set(
      this.ops.filter((o) => o.api === op.api && o.path === op.path).map((o) => o.method),
    );
    const others = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter(
      (m) => !defined.has(m),
    );
    if (!others.length) return base;
    const method = choose(g, others);
    return {
      ...base,
      kind: "method",
      label: `${method} instead of ${op.method}`,
      method,
      raw: method === "GET" ? null : base.raw,
      shouldNotSucceed: true,
    };
  }

  private idempotencyCases(g: fc.GeneratorValue, op: Operation): Case[] {
    const base = this.validCase(g, op);
    const key = `fuzz-${crypto.randomUUID()}`;
    const other = this.validCase(g, op);
    const variant = choose(g, ["replay", "other body", "bad key"] as const);
    if (variant === "bad key")
      return [
        { ...base, kind: "idempotency", label: "bad key", headers: { "idempotency-key": "a b" } },
      ];
    const first = {
      ...base,
      kind: "idempotency" as const,
      label: "first",
      headers: { "idempotency-key": key },
    };
    const second =
      variant === "replay"
        ? { ...first, label: "replay" }
        : { ...first, label: "same key, other body", raw: other.raw, query: other.query };
    return [first, second];
  }

  // -------------------------------------------------------------------------
  // Sending and judging

  private async credentials(c: Case): Promise<Record<string, string>> {
    if (c.op.api === "admin") return { authorization: `Bearer ${adminToken()}` };
    const shop = this.world.shop;
    let key = shop.keys[shop.keys.length - 1];
    // Idempotency-Keys are kept per API key: a pair's second request goes with its first's key.
    const secondOfPair = c.kind === "idempotency" && c.label !== "first";
    if (!key || (key.used >= KEY_BUDGET && !secondOfPair)) {
      await issueKey(shop);
      this.setupRequests++;
      this.counts = await rowCounts();
      key = shop.keys[shop.keys.length - 1];
    }
    if (!key) throw new Error("fuzz: no API key");
    key.used++;
    return { authorization: `Bearer ${key.key}`, workspace: shop.ws };
  }

  private async send(c: Case) {
    const headers = new Headers(await this.credentials(c));
    for (const [k, v] of Object.entries(c.headers)) {
      if (v === "") headers.delete(k);
      else headers.set(k, v);
    }
    if (c.raw?.type) headers.set("content-type", c.raw.type);
    const sendsBody =
      c.raw !== null && c.raw.body !== undefined && !["GET", "HEAD"].includes(c.method);
    // Nothing the fuzz sends may make the Worker call a host off this machine.
    if (sendsBody && c.raw?.body && /"url"/.test(c.raw.body)) assertLoopbackOnly(c.raw.body);
    const base = c.op.api === "public" ? PUBLIC_BASE : ADMIN_BASE;
    const url = `${ORIGIN}${base}${c.path}${c.query ? `?${c.query}` : ""}`;
    const described = describe(c, headers, sendsBody);
    const stats = this.opStats.get(c.op.key);
    let res: Exchange;
    try {
      res = await exchange(
        new Request(url, { method: c.method, headers, body: sendsBody ? c.raw?.body : undefined }),
      );
    } catch (e) {
      this.requests++;
      this.hard(
        "uncaught exception",
        c.op,
        described,
        "",
        String((e as Error)?.stack ?? e).slice(0, 800),
      );
      this.counts = await rowCounts();
      return;
    }
    this.requests++;
    this.byStatus[res.status] = (this.byStatus[res.status] ?? 0) + 1;
    this.byCase[c.kind] = (this.byCase[c.kind] ?? 0) + 1;
    if (c.kind === "body" || c.kind === "whole")
      for (const part of c.label.split(" + ")) {
        const change = part.replace(/ at \S*$/, "") || "(whole body)";
        this.byMutation[change] = (this.byMutation[change] ?? 0) + 1;
      }
    const answer = `${res.status} ${res.text.slice(0, 600)}`;
    const ok = res.status >= 200 && res.status < 300;
    if (stats) {
      if (ok) stats.ok++;
      if (c.kind === "valid") {
        stats.valid++;
        if (ok) stats.validOk++;
      }
    }

    // A move that started pauses the workspace's writes (503 workspace_moving, as documented)
    // until it ends: a client waits for it, so does the fuzzer, before its next request.
    if (ok && c.method === "POST" && /^\/workspaces\/[^/]+\/move$/.test(c.path))
      await moveEnded(c.path.split("/")[2] ?? "");

    // Hard: 5xx, error body, rows left behind, rows written by GET, response schema, leaks.
    if (res.status >= 500) this.hard("5xx", c.op, described, answer, `status ${res.status}`);
    if (res.status >= 400) {
      const problems = errorBodyProblems(res.status, res.json, res.jsonError);
      if (problems.length) this.hard("error body", c.op, described, answer, problems.join("; "));
    }
    const after = await rowCounts();
    const changed = diffCounts(this.counts, after);
    this.counts = after;
    if (!ok && Object.keys(changed).length)
      this.hard("rows left by rejection", c.op, described, answer, JSON.stringify(changed));
    if (ok && c.method === "GET" && Object.keys(changed).length)
      this.hard("rows written by GET", c.op, described, answer, JSON.stringify(changed));
    if (ok && c.mustNotSucceed === "foreign")
      this.hard(
        "cross-workspace access",
        c.op,
        described,
        answer,
        "a path id of another workspace was answered with 2xx",
      );
    if (ok && c.mustNotSucceed === "auth")
      this.hard(
        "credentials bypassed",
        c.op,
        described,
        answer,
        "broken credentials were answered with 2xx",
      );
    if (ok && c.shouldNotSucceed && c.kind === "path")
      this.softFinding("2xx for a made-up path id", c.op, described, answer, "");
    if (ok && c.kind === "method")
      this.softFinding("undocumented method answered 2xx", c.op, described, answer, "");
    if (!ok && c.kind === "valid") {
      this.softFinding(
        "valid request refused (a business rule or a conflict)",
        c.op,
        described,
        answer,
        "",
      );
      const message = (res.json as { message?: unknown } | undefined)?.message;
      const reason = `${c.op.key} → ${res.status} ${String(message ?? "").slice(0, 120)}`;
      this.refusals[reason] = (this.refusals[reason] ?? 0) + 1;
    }

    if (ok && c.op.jsonResponses && res.status !== 204) {
      if (res.jsonError !== null || res.json === undefined)
        this.hard(
          "response schema",
          c.op,
          described,
          answer,
          `2xx body is not JSON: ${res.jsonError ?? "empty"}`,
        );
      else {
        const errors = this.validators.responseErrors(c.op, res.status, res.json);
        if (errors?.length)
          this.hard("response schema", c.op, described, answer, errors.join("; "));
        else if (errors) {
          const extra = this.validators.undocumentedFields(c.op, res.status, res.json);
          if (extra.length)
            this.softFinding(
              "response field not in schema",
              c.op,
              described,
              answer,
              extra.join(", "),
            );
        }
        this.learn(c.op, res.json);
      }
    }
    if (ok) this.usedUp(c);
    if (res.status === 204 && res.text)
      this.hard("response schema", c.op, described, answer, "204 with a body");

    // Soft: documentation and budget.
    if (!c.op.responses.has(res.status) && c.kind !== "method")
      this.softFinding(`undocumented status ${res.status}`, c.op, described, answer, "");
    if (ok && c.op.body && c.raw?.type === "application/json" && c.kind !== "valid") {
      let value: unknown;
      try {
        // A leading BOM is tolerated by the server; judge what follows it.
        value =
          c.raw.body === undefined ? undefined : JSON.parse(c.raw.body.replace(/^\ufeff/, ""));
      } catch {
        value = undefined;
      }
      const errors =
        value === undefined ? ["not JSON"] : this.validators.errors(c.op.api, c.op.body, value);
      if (errors.length)
        this.softFinding(
          "2xx for a body its schema rejects",
          c.op,
          described,
          answer,
          errors.join("; "),
        );
    }
    if (c.kind === "valid" && c.op.body && c.raw?.body) {
      const errors = this.validators.errors(c.op.api, c.op.body, JSON.parse(c.raw.body));
      if (errors.length)
        this.softFinding(
          "fuzz bug: valid body breaks its schema",
          c.op,
          described,
          answer,
          errors.join("; "),
        );
    }
    const timing = res.headers.get("server-timing") ?? "";
    const trips = /d1;[^,]*desc="(\d+) round trips"/.exec(timing);
    if (trips && Number(trips[1]) > 3)
      this.softFinding("more than 3 D1 round trips", c.op, described, answer, trips[0]);
    const calls = /calendar-total;desc="(\d+) calls"/.exec(timing);
    if (calls && Number(calls[1]) > 100)
      this.softFinding("more than 100 calendar calls", c.op, described, answer, calls[0]);
    if (res.status === 429)
      this.softFinding(
        "429: the fuzz ran into a rate limit (requests wasted)",
        c.op,
        described,
        answer,
        "",
      );
    if (!res.headers.get("x-request-id"))
      this.softFinding("no x-request-id", c.op, described, answer, "");
    if (c.kind === "idempotency") this.judgeIdempotency(c, res, described, answer);
  }

  private judgeIdempotency(c: Case, res: Exchange, described: string, answer: string) {
    const key = c.headers["idempotency-key"];
    if (c.label === "first" && key) {
      this.lastIdempotent = { key, body: c.raw?.body, op: c.op, path: c.path, status: res.status };
      return;
    }
    const first = this.lastIdempotent;
    if (!first || first.key !== key) return;
    if (c.label === "replay" && first.status < 300 && res.status !== first.status)
      this.softFinding(
        "idempotent replay answered differently",
        c.op,
        described,
        answer,
        `first ${first.status}`,
      );
    if (
      c.label === "same key, other body" &&
      first.status < 300 &&
      c.raw?.body !== first.body &&
      res.status !== 422
    )
      this.softFinding(
        "idempotency key reused with another body not refused",
        c.op,
        described,
        answer,
        `first ${first.status}`,
      );
  }

  /** Records a success closed or removed are no longer offered to valid requests. */
  private usedUp(c: Case) {
    const rules: [RegExp, string, Kind][] = [
      [
        /^PUT public:\/bookings\/\{booking_uuid\}\/status\/(cancel|complete)$/,
        "booking_uuid",
        "booking",
      ],
      [/^POST public:\/orders\/\{order_uuid\}\/pay$/, "order_uuid", "order"],
      [/^DELETE public:\/webhooks\/\{webhook_id\}$/, "webhook_id", "webhook"],
      [/^DELETE admin:.*\/api-keys\/\{key_id\}$/, "key_id", "api_key"],
    ];
    for (const [pattern, param, kind] of rules) {
      if (!pattern.test(c.op.key)) continue;
      const at = c.op.path.split("/").indexOf(`{${param}}`);
      const id = decodeURIComponent(c.path.split("/")[at] ?? "");
      forget(this.world.shop.pools[kind], id);
    }
  }

  /** Records created by a success, so later requests can name them. */
  private learn(op: Operation, json: unknown) {
    const pools = this.world.shop.pools;
    const body = json as Record<string, unknown>;
    const bookings = Array.isArray(body?.bookings) ? body.bookings : [body];
    for (const b of bookings) learnBooking(this.world, b);
    if (op.method !== "POST" || typeof body !== "object" || body === null) return;
    const id =
      typeof body.uuid === "string" ? body.uuid : body.id !== undefined ? String(body.id) : null;
    const last =
      op.path
        .split("/")
        .filter((s) => s && !s.startsWith("{"))
        .pop() ?? "";
    const kinds: Record<string, Kind[]> = {
      services: ["service"],
      goods: ["good"],
      bookings: ["booking"],
      orders: ["order"],
      webhooks: ["webhook"],
      locations: ["location"],
      staffers: ["staffer", "schedulable"],
      "api-keys": ["api_key"],
      accounts: ["account"],
      "booking-statuses": ["status"],
      "voucher-templates": ["voucher_template"],
      customers: ["customer"],
      resources: ["resource"],
    };
    if (op.path === "/bookings/cart")
      for (const b of bookings) if (typeof b?.uuid === "string") remember(pools.booking, b.uuid);
    if (!id) return;
    for (const k of kinds[last] ?? []) remember(pools[k], id);
    if (last === "categories")
      remember(body.kind === "good" ? pools.category_good : pools.category_service, id);
    if (last === "promocodes" && typeof body.code === "string")
      remember(pools.promocode, body.code);
  }

  // -------------------------------------------------------------------------
  // Findings

  private hard(kind: string, op: Operation, request: string, response: string, detail: string) {
    this.hardCounts[kind] = (this.hardCounts[kind] ?? 0) + 1;
    const key = `${kind}|${op.key}|${detail.slice(0, 80)}`;
    const seen = this.violationKeys.get(key) ?? 0;
    this.violationKeys.set(key, seen + 1);
    if (seen >= MAX_EXAMPLES) return;
    const finding = { kind, op: op.key, request, response, detail };
    this.violations.push(finding);
    console.error(
      `FUZZ VIOLATION [${kind}] ${op.key}: ${detail}\n  request: ${request}\n  response: ${response}`,
    );
  }

  private softFinding(
    kind: string,
    op: Operation,
    request: string,
    response: string,
    detail: string,
  ) {
    const entry = this.soft.get(kind) ?? { count: 0, examples: [], byOp: {} };
    entry.count++;
    entry.byOp[op.key] = (entry.byOp[op.key] ?? 0) + 1;
    if (entry.examples.length < MAX_EXAMPLES && !entry.examples.some((e) => e.op === op.key))
      entry.examples.push({ kind, op: op.key, request, response: response.slice(0, 300), detail });
    this.soft.set(kind, entry);
  }

  softExamples() {
    return [...this.soft.entries()].map(([kind, e]) => ({
      kind,
      count: e.count,
      examples: e.examples,
    }));
  }

  private summary(passes: number, duration: number): Summary {
    const rate: Record<string, string> = {};
    const never: string[] = [];
    for (const [key, s] of this.opStats) {
      rate[key] = `${s.validOk}/${s.valid}`;
      if (s.ok === 0) never.push(key);
    }
    return {
      shard: this.options.shard,
      seed: this.options.seed,
      passes,
      requests: this.requests,
      setup_requests: this.setupRequests,
      by_status: this.byStatus,
      server_errors: (this.hardCounts["5xx"] ?? 0) + (this.hardCounts["uncaught exception"] ?? 0),
      error_body_violations: this.hardCounts["error body"] ?? 0,
      rows_left_by_rejections: this.hardCounts["rows left by rejection"] ?? 0,
      response_schema_violations: this.hardCounts["response schema"] ?? 0,
      violations: Object.values(this.hardCounts).reduce((a, b) => a + b, 0),
      soft: Object.fromEntries([...this.soft.entries()].map(([k, v]) => [k, v.count])),
      soft_by_op: Object.fromEntries([...this.soft.entries()].map(([k, v]) => [k, v.byOp])),
      refusals: this.refusals,
      ops_never_2xx: never,
      valid_success_rate: rate,
      cases: this.byCase,
      mutations: this.byMutation,
      pass_ms: this.passMs,
      duration_ms: duration,
    };
  }
}

function encodeQuery(q: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const x of Array.isArray(v) ? v : [v])
      params.append(k, typeof x === "string" ? x : JSON.stringify(x));
  }
  return params.toString();
}

/** The request as a reader can replay it (credentials named, not shown). */
function describe(c: Case, headers: Headers, sendsBody: boolean): string {
  const shown = [...headers.entries()]
    .filter(([k]) => k !== "authorization" && k !== "workspace")
    .map(([k, v]) => `${k}: ${v.slice(0, 80)}`);
  const auth = headers.get("authorization")
    ? c.kind === "auth"
      ? `credentials: ${c.label}`
      : "credentials: shop"
    : "no credentials";
  const body = sendsBody && c.raw?.body !== undefined ? c.raw.body : "";
  const shortBody = body.length > 1500 ? `${body.slice(0, 1500)}… (${body.length} chars)` : body;
  return `${c.method} ${c.op.api === "public" ? PUBLIC_BASE : ADMIN_BASE}${c.path}${c.query ? `?${c.query.slice(0, 300)}` : ""} [${c.kind}: ${c.label}] (${auth}${shown.length ? `; ${shown.join("; ")}` : ""}) ${shortBody}`;
}

/** Fails the fuzz itself if a body would point a webhook at a host off this machine. */
function assertLoopbackOnly(body: string) {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return;
  }
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === "object" && v !== null)
      for (const [k, x] of Object.entries(v)) {
        if (k === "url" && typeof x === "string" && !isLoopbackUrl(x))
          throw new Error(`fuzz: refusing to send a non-loopback webhook URL ${x}`);
        walk(x);
      }
  };
  walk(value);
}

/** Seeds: FUZZ_SEED replays a run; otherwise a fresh one per run, printed in the summary. */
export function seedFor(shard: number): number {
  const base = Number(
    (env as unknown as Record<string, string | undefined>).FUZZ_SEED ?? Number.NaN,
  );
  return Number.isFinite(base) ? base + shard : (Date.now() ^ (shard * 0x9e3779b1)) | 0;
}

/** Waits (at most 30 s) until the workspace's move is no longer under way. */
async function moveEnded(workspaceId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const row = await env.DB.prepare("SELECT status FROM workspace_moves WHERE workspace_id = ?")
      .bind(workspaceId)
      .first<{ status: string }>();
    if (!row || row.status === "done" || row.status === "aborted") return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
