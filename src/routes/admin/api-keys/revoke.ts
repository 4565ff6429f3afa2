import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { eq, isNull } from "drizzle-orm";
import { apiKeys, workspaces } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { notFound } from "../../../lib/errors";
import { errorResponses } from "../../../lib/responses";

const Params = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
  // Any text: a key id that cannot exist is simply not found, like any other unknown id.
  key_id: z.string().max(64).openapi({ description: "The `id` returned when the key was issued" }),
});

export const route = createRoute({
  method: "delete",
  path: "/workspaces/{ws}/api-keys/{key_id}",
  tags: ["API keys"],
  summary: "Revoke an API key; it is refused from the next request on",
  request: { params: Params },
  responses: { 204: { description: "Revoked" }, ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { ws, key_id: keyId } = c.req.valid("param");
  const db = c.var.db;
  const workspaceId = ws.toLowerCase();
  // The row is kept (revoked_at set) so an audit can still tell which key was used when.
  const [found, revoked] = await db.batch([
    db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)),
    db
      .update(apiKeys)
      .set({ revokedAt: Date.now() })
      .where(
        whereIn({ db, workspaceId }, apiKeys, eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)),
      )
      .returning({ id: apiKeys.id }),
  ]);
  if (found.length === 0) throw notFound("Workspace");
  if (revoked.length === 0) throw notFound("API key");
  return c.body(null, 204);
};
