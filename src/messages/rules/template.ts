import { isVariable, type Values } from "./variables";

/** A piece of a template: text as written, or a `{{ name }}` placeholder (name trimmed). */
export type TemplatePart = { text: string } | { name: string };

/** What scanning a template found, and how many characters it looked at to find it. */
export interface ScannedTemplate {
  parts: TemplatePart[];
  /** Characters examined, counted for the unit test that holds the scan linear. */
  steps: number;
}

const isSpace = (c: string) => /\s/.test(c);

/**
 * `{{ name }}` is the only syntax a template has (no code, no expressions, no
 * loops): `{{`, then anything but braces, then `}}`, the name being what lies
 * between with its white space trimmed. A scanner, not a regular expression:
 * the lazy pattern it replaces backtracked on every `{{` and every run of spaces
 * (cubic on a template of `{{ ` repeated). Here an attempt that fails stops at
 * the first brace and the next starts at or after it, so no character is
 * looked at more than a few times whatever the text.
 */
export function scanTemplate(template: string): ScannedTemplate {
  const parts: TemplatePart[] = [];
  let steps = 0;
  let text = "";
  let i = 0;
  while (i < template.length) {
    steps++;
    if (template[i] !== "{" || template[i + 1] !== "{") {
      text += template[i];
      i++;
      continue;
    }
    // From the `{{` at i: the name runs to the first brace; a placeholder when that is `}}`.
    let j = i + 2;
    while (j < template.length && template[j] !== "{" && template[j] !== "}") {
      steps++;
      j++;
    }
    if (template[j] === "}" && template[j + 1] === "}") {
      if (text) parts.push({ text });
      text = "";
      let name = template.slice(i + 2, j);
      // Trimmed by hand with the same white space `\s` means, one step a character.
      let from = 0;
      let to = name.length;
      while (from < to && isSpace(name[from] ?? "")) from++;
      while (to > from && isSpace(name[to - 1] ?? "")) to--;
      steps += name.length;
      name = name.slice(from, to);
      parts.push({ name });
      i = j + 2;
      continue;
    }
    // Not a placeholder from here: keep this `{` as text and look again from the next character.
    text += template[i];
    i++;
  }
  if (text) parts.push({ text });
  return { parts, steps };
}

/**
 * The variables a template names that are not in the documented list, and
 * any `{{` left unclosed: a template with any of these is refused on save.
 */
export function unknownVariables(template: string): string[] {
  const { parts } = scanTemplate(template);
  const unknown: string[] = [];
  for (const part of parts) if ("name" in part && !isVariable(part.name)) unknown.push(part.name);
  // A `{{` that no placeholder consumed (an unclosed or nested one), as the text reads without them.
  const rest = parts.map((part) => ("text" in part ? part.text : "")).join("");
  if (rest.includes("{{")) unknown.push("{{");
  return [...new Set(unknown)];
}

export class UnknownVariableError extends Error {
  constructor(readonly names: string[]) {
    super(`unknown template variables: ${names.join(", ")}`);
  }
}

/**
 * Substitutes each `{{name}}` with its value, in one pass: a value is text,
 * never read again as a template. An unknown name is refused, not left blank.
 */
export function renderTemplate(template: string, values: Values): string {
  const unknown = unknownVariables(template);
  if (unknown.length > 0) throw new UnknownVariableError(unknown);
  return scanTemplate(template)
    .parts.map((part) =>
      "text" in part ? part.text : isVariable(part.name) ? values[part.name] : "",
    )
    .join("");
}

/** Text-direction embeddings, overrides and isolates: dropped from a one-line text. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/gu;
/** Runs of white space, control characters (CR, LF, TAB, NEL, NUL…) and line or paragraph separators. */
const BREAKS_AND_SPACE = /[\s\p{Cc}\p{Zl}\p{Zp}]+/gu;

/**
 * A text as one line: every run of white space, line breaks and control
 * characters becomes one space, text-direction controls are dropped, and the
 * ends are trimmed. What a subject (a mail header's value) is rendered
 * through, whatever the variables or a workspace's template hold.
 */
export const oneLine = (text: string): string =>
  text.replace(BIDI_CONTROLS, "").replace(BREAKS_AND_SPACE, " ").trim();
