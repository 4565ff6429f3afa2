/** Fills `{name}` from vars; a name without a value stays as written (a visible bug, not a crash). */
export function fill(template: string, vars: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => vars[name] ?? whole);
}
