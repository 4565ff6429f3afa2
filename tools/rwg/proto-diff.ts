import protobuf from "protobufjs";

/**
 * How one .proto departs from another: every message or enum of `theirs` (or only those
 * reachable from `from`) must be in `ours` under the same full name with the same fields
 * (name, number, type, label, oneof, deprecated) or values, and the same reserved numbers;
 * and `ours` may hold nothing `theirs` lacks. Each difference is one line.
 */
export type Declared = protobuf.Type | protobuf.Enum;

export function parseProto(text: string): protobuf.Root {
  const { root } = protobuf.parse(text, { keepCase: true });
  root.resolveAll();
  return root;
}

const strip = (fullName: string) => fullName.replace(/^\./, "");

/** Every message and enum declared in `ns`, nested ones included. */
export function declared(ns: protobuf.NamespaceBase): Declared[] {
  return ns.nestedArray.flatMap((n): Declared[] => {
    if (n instanceof protobuf.Type) return [n, ...declared(n)];
    if (n instanceof protobuf.Enum) return [n];
    if (n instanceof protobuf.Namespace) return declared(n);
    return [];
  });
}

/**
 * The messages and enums `roots` need: their fields' types, their nested declarations, and
 * the message a needed declaration is nested in (its name depends on it).
 */
export function reachable(root: protobuf.Root, roots: string[]): Declared[] {
  const seen = new Map<string, Declared>();
  const visit = (t: Declared) => {
    if (seen.has(t.fullName)) return;
    seen.set(t.fullName, t);
    if (t.parent instanceof protobuf.Type) visit(t.parent);
    if (t instanceof protobuf.Enum) return;
    for (const f of t.fieldsArray) if (f.resolvedType) visit(f.resolvedType);
    for (const n of t.nestedArray)
      if (n instanceof protobuf.Type || n instanceof protobuf.Enum) visit(n);
  };
  for (const name of roots) {
    const t = root.lookup(name);
    if (!(t instanceof protobuf.Type || t instanceof protobuf.Enum))
      throw new Error(`${name} is not declared`);
    visit(t);
  }
  return [...seen.values()];
}

const typeOf = (f: protobuf.Field) => (f.resolvedType ? strip(f.resolvedType.fullName) : f.type);
const label = (f: protobuf.Field) =>
  f instanceof protobuf.MapField
    ? `map<${f.keyType}>`
    : f.repeated
      ? "repeated"
      : f.options?.proto3_optional
        ? "optional"
        : "singular";
const reservedOf = (t: Declared) =>
  JSON.stringify((t.reserved ?? []).map((r) => (typeof r === "string" ? r : r.join("-"))).sort());
const deprecated = (o: { options?: Record<string, unknown> }) => o.options?.deprecated === true;

function diffType(ours: protobuf.Type, theirs: protobuf.Type, out: string[]) {
  const name = strip(theirs.fullName);
  for (const t of theirs.fieldsArray) {
    const o = ours.fields[t.name];
    const at = `${name}.${t.name}`;
    if (!o) {
      out.push(`${at}: field missing (${label(t)} ${typeOf(t)} = ${t.id})`);
      continue;
    }
    const pairs: [string, unknown, unknown][] = [
      ["number", o.id, t.id],
      ["type", typeOf(o), typeOf(t)],
      ["label", label(o), label(t)],
      ["oneof", o.partOf?.name ?? "none", t.partOf?.name ?? "none"],
      ["deprecated", deprecated(o), deprecated(t)],
    ];
    for (const [what, a, b] of pairs) if (a !== b) out.push(`${at}: ${what} is ${a}, theirs ${b}`);
  }
  for (const o of ours.fieldsArray) {
    if (!theirs.fields[o.name]) out.push(`${name}.${o.name}: field not in theirs (= ${o.id})`);
  }
  const oneofs = (t: protobuf.Type) => JSON.stringify(t.oneofsArray.map((x) => x.name).sort());
  if (oneofs(ours) !== oneofs(theirs)) {
    out.push(`${name}: oneofs are ${oneofs(ours)}, theirs ${oneofs(theirs)}`);
  }
  if (reservedOf(ours) !== reservedOf(theirs)) {
    out.push(`${name}: reserved ${reservedOf(ours)}, theirs ${reservedOf(theirs)}`);
  }
}

function diffEnum(ours: protobuf.Enum, theirs: protobuf.Enum, out: string[]) {
  const name = strip(theirs.fullName);
  for (const [value, number] of Object.entries(theirs.values)) {
    const o = ours.values[value];
    if (o === undefined) out.push(`${name}.${value}: enum value missing (= ${number})`);
    else if (o !== number) out.push(`${name}.${value}: number is ${o}, theirs ${number}`);
  }
  for (const value of Object.keys(ours.values)) {
    if (theirs.values[value] === undefined) out.push(`${name}.${value}: enum value not in theirs`);
  }
  if (reservedOf(ours) !== reservedOf(theirs)) {
    out.push(`${name}: reserved ${reservedOf(ours)}, theirs ${reservedOf(theirs)}`);
  }
}

/** Every difference of `ours` from `theirs`; `from` limits `theirs` to what those messages need. */
export function diffProtos(ours: protobuf.Root, theirs: protobuf.Root, from?: string[]): string[] {
  const out: string[] = [];
  const wanted = from ? reachable(theirs, from) : declared(theirs);
  const wantedNames = new Set(wanted.map((t) => t.fullName));
  for (const t of wanted) {
    const o = ours.lookup(t.fullName);
    const kind = t instanceof protobuf.Type ? "message" : "enum";
    if (t instanceof protobuf.Type && o instanceof protobuf.Type) diffType(o, t, out);
    else if (t instanceof protobuf.Enum && o instanceof protobuf.Enum) diffEnum(o, t, out);
    else out.push(`${strip(t.fullName)}: ${kind} missing`);
  }
  for (const o of declared(ours)) {
    if (wantedNames.has(o.fullName)) continue;
    const inTheirs = theirs.lookup(o.fullName) !== null;
    out.push(
      `${strip(o.fullName)}: ${inTheirs ? "not needed by the methods we serve" : "not in theirs"}`,
    );
  }
  return out;
}
