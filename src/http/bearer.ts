import type { Context } from "hono";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The token of an `Authorization: Bearer <token>` header, if the request has one. */
export const bearerToken = (c: Context): string | undefined =>
  BEARER.exec(c.req.header("authorization") ?? "")?.[1];
