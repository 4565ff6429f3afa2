/**
 * A strict reading of iCalendar text by the letter of RFC 5545, written here and sharing nothing
 * with ical.js or ical-generator: the second, independent reader of the feeds (no second iCalendar
 * parser is installed). It throws on anything the RFC forbids that a lenient parser would let
 * through:
 * - §3.1: every line ends with CRLF (no bare CR or LF), a physical line is at most 75 octets,
 *   and a folded line's continuation starts with one space or tab;
 * - §3.1: a content line is `name *(";" param) ":" value`, names are IANA tokens or X-names;
 * - §3.3.11: a TEXT value (SUMMARY, DESCRIPTION, LOCATION, COMMENT) escapes `\`, `;`, `,` and
 *   newlines (`\n`); no other backslash sequence is allowed;
 * - §3.4, §3.6: components nest by BEGIN/END with the same name, VCALENDAR outermost, and
 *   VCALENDAR has VERSION:2.0 and PRODID; a VEVENT has exactly one UID and one DTSTAMP.
 * It returns the components with their properties' values unescaped.
 */

export interface Component {
  name: string;
  props: { name: string; params: string; value: string }[];
  children: Component[];
}

const TEXT_PROPS = new Set(["SUMMARY", "DESCRIPTION", "LOCATION", "COMMENT", "X-WR-CALNAME"]);
const NAME = /^(?:[A-Z0-9-]+)$/;
const utf8 = new TextEncoder();

/** §3.3.11's unescaping; throws on an unescaped `;` or `,` or an unknown escape. */
export function unescapeText(value: string, where: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch === ";" || ch === ",") throw new Error(`${where}: unescaped "${ch}" in TEXT: ${value}`);
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = value[++i];
    if (next === "n" || next === "N") out += "\n";
    else if (next === "\\" || next === ";" || next === ",") out += next;
    else throw new Error(`${where}: bad escape "\\${next}" in TEXT: ${value}`);
  }
  return out;
}

/** Splits a content line at the colon that ends its name and parameters (quoted values skipped). */
function splitLine(line: string): { name: string; params: string; value: string } {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ":" && !quoted) {
      const head = line.slice(0, i);
      const [name = "", ...params] = head.split(";");
      if (!NAME.test(name)) throw new Error(`Bad property name "${name}" in: ${line}`);
      return { name, params: params.join(";"), value: line.slice(i + 1) };
    }
  }
  throw new Error(`No colon in content line: ${line}`);
}

export function strictIcs(text: string): Component {
  if (!text.endsWith("\r\n")) throw new Error("The text does not end with CRLF");
  const physical = text.slice(0, -2).split("\r\n");
  const logical: string[] = [];
  for (const [i, line] of physical.entries()) {
    if (/[\r\n]/.test(line))
      throw new Error(`Bare CR or LF in line ${i + 1}: ${JSON.stringify(line)}`);
    const octets = utf8.encode(line).length;
    if (octets > 75) throw new Error(`Line ${i + 1} is ${octets} octets (> 75): ${line}`);
    if (line.startsWith(" ") || line.startsWith("\t")) {
      if (logical.length === 0) throw new Error("The text starts with a continuation line");
      logical[logical.length - 1] += line.slice(1);
    } else {
      if (line === "") throw new Error(`Empty line ${i + 1}`);
      logical.push(line);
    }
  }
  const stack: Component[] = [];
  let root: Component | undefined;
  for (const line of logical) {
    const { name, params, value } = splitLine(line);
    if (name === "BEGIN") {
      const component: Component = { name: value, props: [], children: [] };
      const parent = stack.at(-1);
      if (parent) parent.children.push(component);
      else if (root) throw new Error("A second top-level component");
      else root = component;
      stack.push(component);
    } else if (name === "END") {
      const open = stack.pop();
      if (open?.name !== value) throw new Error(`END:${value} closes ${open?.name ?? "nothing"}`);
    } else {
      const open = stack.at(-1);
      if (!open) throw new Error(`A property outside any component: ${line}`);
      const unescaped = TEXT_PROPS.has(name) ? unescapeText(value, name) : value;
      open.props.push({ name, params, value: unescaped });
    }
  }
  if (stack.length > 0) throw new Error(`Unclosed ${stack.map((c) => c.name).join(", ")}`);
  if (root?.name !== "VCALENDAR") throw new Error("The outermost component is not VCALENDAR");
  if (prop(root, "VERSION") !== "2.0") throw new Error("VCALENDAR without VERSION:2.0");
  if (!prop(root, "PRODID")) throw new Error("VCALENDAR without PRODID");
  for (const event of root.children.filter((c) => c.name === "VEVENT")) {
    for (const required of ["UID", "DTSTAMP"])
      if (event.props.filter((p) => p.name === required).length !== 1)
        throw new Error(`A VEVENT without exactly one ${required}`);
  }
  return root;
}

/** The value of a component's first property of that name. */
export const prop = (component: Component, name: string) =>
  component.props.find((p) => p.name === name)?.value;

/** The VEVENTs of a calendar by UID. */
export const eventsByUid = (calendar: Component) =>
  new Map(
    calendar.children
      .filter((c) => c.name === "VEVENT")
      .map((event) => [prop(event, "UID") ?? "", event] as const),
  );
