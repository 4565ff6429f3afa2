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
