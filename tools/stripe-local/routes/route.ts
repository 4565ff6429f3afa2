import type { Ctx } from "../context";
import type { Params } from "./params";

/** One /v1 operation: its spec path (the key into the trimmed description) and its handler. */
export interface Route {
  method: "get" | "post";
  /** As the OpenAPI description spells it: /v1/checkout/sessions/{session}. */
  path: string;
  handle: (ctx: Ctx, params: Params, path: Record<string, string>) => unknown;
}
