import type { Context } from "hono";

/** Google reads the status alone: 200 is healthy (the credentials were checked on the way in). */
export const healthCheck = (c: Context) => c.text("200", 200);
