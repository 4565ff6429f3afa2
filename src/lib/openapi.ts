import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationError } from "./errors";
import { fieldErrorsFrom } from "./zod-errors";

/**
 * Every router validates through the same hook, so a zod failure anywhere
 * (params, query, body) becomes the one 422 body with field errors.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        throw validationError(fieldErrorsFrom(result.error));
      }
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
