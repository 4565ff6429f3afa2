// Writes test/fixtures/stripe/openapi.trimmed.json: the operations the Worker uses, cut out of
// Stripe's published OpenAPI description (see README.md for where the full file comes from).
//
//   npx tsx tools/stripe-local/trim-openapi.ts <spec3.json> [out.json]
//
// Request schemas are kept whole; response schemas follow their $refs breadth-first up to
// MAX_DEPTH schemas away from an operation's answer (or an event's object), deeper ones become
// `{}` (anything) so that the file stays small. Descriptions are dropped for the same reason.
import { readFileSync, writeFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { OPERATIONS, RESPONSE_ROOTS } from "./operations";

const MAX_DEPTH = 2;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const [specPath, outPath = "test/fixtures/stripe/openapi.trimmed.json"] = process.argv.slice(2);
if (!specPath) {
  console.error("usage: tsx tools/stripe-local/trim-openapi.ts <spec3.json> [out.json]");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specPath, "utf8")) as {
  info: JsonObject;
  paths: Record<string, Record<string, JsonObject>>;
  components: { schemas: Record<string, Json> };
};

const REF = "#/components/schemas/";
const refsOf = (node: Json, into: Set<string>): Set<string> => {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, into));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") into.add(value.slice(REF.length));
      else refsOf(value, into);
    }
  }
  return into;
};

/** A copy without descriptions, with refs to schemas not kept replaced by `{}`. */
const strip = (node: Json, kept: Set<string>): Json => {
  if (Array.isArray(node)) return node.map((n) => strip(n, kept));
  if (!node || typeof node !== "object") return node;
  if (typeof node.$ref === "string" && !kept.has(node.$ref.slice(REF.length))) {
    return { "x-trimmed": node.$ref.slice(REF.length) };
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "description" && typeof value === "string") continue;
    // A property called "description" is an object schema, kept.
    out[key] = strip(value, kept);
  }
  return out;
};

const paths: Record<string, Record<string, Json>> = {};
const roots = new Set<string>(RESPONSE_ROOTS);
for (const { method, path } of OPERATIONS) {
  const operation = spec.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the spec`);
  refsOf(operation.responses ?? null, new Set()).forEach((name) => {
    if (name !== "error") roots.add(name);
  });
  paths[path] = { ...paths[path], [method]: operation };
}

// Breadth-first from the answers' schemas: each kept schema's depth is its shortest distance.
const kept = new Set<string>(["error", "api_errors"]);
let frontier = [...roots];
for (let depth = 0; depth <= MAX_DEPTH && frontier.length > 0; depth++) {
  const next: string[] = [];
  for (const name of frontier) {
    if (kept.has(name) && depth > 0) continue;
    kept.add(name);
    refsOf(spec.components.schemas[name] ?? null, new Set()).forEach((ref) => {
      if (!kept.has(ref)) next.push(ref);
    });
  }
  frontier = [...new Set(next)];
}
// Request bodies are kept whole: every schema they reference too.
const requestRefs = refsOf(
  Object.values(paths).flatMap((ops) =>
    Object.values(ops).map((op) => {
      const { responses: _r, ...rest } = op as JsonObject;
      return rest;
    }),
  ),
  new Set(),
);
requestRefs.forEach((name) => kept.add(name));

const schemas: Record<string, Json> = {};
for (const name of [...kept].sort()) {
  const schema = spec.components.schemas[name];
  if (schema !== undefined) schemas[name] = strip(schema, kept);
}
const trimmed = {
  openapi: "3.0.0",
  info: {
    title: `Stripe API (trimmed for stripe-local)`,
    version: spec.info.version ?? null,
  },
  paths: strip(paths as Json, kept),
  components: { schemas },
};
// Formatted as `npm run lint` wants it, so that a regeneration diffs only what changed.
const text = await format(JSON.stringify(trimmed), {
  ...(await resolveConfig(outPath)),
  parser: "json",
});
writeFileSync(outPath, text);
console.log(`${outPath}: ${Object.keys(schemas).length} schemas, ${text.length} bytes`);
