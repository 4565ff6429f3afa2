import type { Metadata } from "../objects";

/** Decoded, spec-checked form parameters (the spec already vouched for their types). */
export type Params = Record<string, unknown>;

export const str = (p: Params, key: string): string | null =>
  typeof p[key] === "string" ? (p[key] as string) : null;

export const int = (p: Params, key: string): number | undefined =>
  typeof p[key] === "number" ? (p[key] as number) : undefined;

export const obj = (p: Params, key: string): Params =>
  p[key] && typeof p[key] === "object" && !Array.isArray(p[key]) ? (p[key] as Params) : {};

/** `metadata[...]`; an empty string (Stripe's "unset all") is no metadata. */
export const metadataOf = (p: Params): Metadata => {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(obj(p, "metadata"))) {
    if (typeof value === "string" && value !== "") out[key] = value;
  }
  return out;
};

export const expandOf = (p: Params): string[] =>
  Array.isArray(p.expand) ? p.expand.filter((e): e is string => typeof e === "string") : [];
