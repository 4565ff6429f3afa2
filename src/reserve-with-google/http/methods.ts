import type { MiddlewareHandler } from "hono";
import type { RwgEnv } from "./env";

/** The booking server's POST methods, by the name Google's path gives them. */
export const METHODS: Record<string, MiddlewareHandler<RwgEnv>> = {};
