import { isVariable, type Values } from "./variables";

/** `{{ name }}`: the only syntax a template has (no code, no expressions, no loops). */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * The variables a template names that are not in the documented list, and
 * any `{{` left unclosed: a template with any of these is refused on save.
 */
export function unknownVariables(template: string): string[] {
  const unknown: string[] = [];
  for (const [, name = ""] of template.matchAll(PLACEHOLDER))
    if (!isVariable(name)) unknown.push(name);
  // A `{{` that no placeholder consumed: an unclosed or nested one.
  if (template.replace(PLACEHOLDER, "").includes("{{")) unknown.push("{{");
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
  return template.replace(PLACEHOLDER, (_, name: string) => (isVariable(name) ? values[name] : ""));
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
