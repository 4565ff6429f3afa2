import type { Context } from "hono";
import type { BookingDeps } from "../../deps";
import { workspaceRenderRead } from "../../queries/manage";
import { run } from "../../../db/reads";
import type { Scope } from "../../../db/scope";
import type { OpenEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { assertLinkOpens, invalidLink, manageUrl, verifiedManageToken } from "../../manage-link";
import { routeLink } from "../../../http/route-link";
import { messageVisitor } from "../../../messages/message-visitor";
import { publicOrigin } from "../../../platform/public-origin";
import {
  clientAddress,
  limitCustomerChange,
  limitLink,
  limitLinkWorkspace,
} from "../../../http/rate-limit";
import type { ManageGrant } from "../../manage-token";

/**
 * The booking a manage link opens and the workspace it is in, both from the
 * verified token alone (no key, no Workspace header): every read and write of
 * the request is scoped to that workspace, so the link reaches that one
 * booking and nothing else. 401 `invalid_token` before anything is read.
 * Then counted per booking (whichever of its links) and per workspace, still
 * before anything is read: 429 past either. Then routed to the workspace's
 * shard; a signed token naming a workspace the directory does not know is
 * refused as any invalid token is.
 */
export async function managedScope(
  c: Context<OpenEnv>,
  token: string,
): Promise<{ grant: ManageGrant; scope: Scope }> {
  const grant = verifiedManageToken(c.env, token);
  await limitLink(c.env, `booking:${grant.bookingId}`);
  await limitLinkWorkspace(c.env, grant.workspaceId);
  const db = await routeLink(c, grant.workspaceId);
  if (!db) throw invalidLink();
  return { grant, scope: { db, workspaceId: grant.workspaceId } };
}

/** Links are built on the configured public origin, never on the request's Host. */
const origin = (c: Context<OpenEnv>) => publicOrigin(c.env);

/**
 * A customer's booking change through the link: what a publishable key's
 * change gets (`staff: false`, so no hold gives way, and the change counts
 * against the booking), with the workspace's money and language settings read
 * first (one D1 round trip; a keyed request has them from its key check). The
 * change refuses a booking the link no longer opens (moved since it was issued).
 */
export async function customerDeps(
  c: Context<OpenEnv>,
  scope: Scope,
  grant: ManageGrant,
): Promise<BookingDeps> {
  const workspace = await run(scope.db, workspaceRenderRead(scope));
  if (!workspace) throw notFound("Booking");
  return {
    scope,
    env: c.env,
    render: { currency: workspace.currency, locale: workspace.locale, origin: origin(c) },
    defer: (task) => c.var.afterResponse(task),
    staff: false,
    limitCustomerChange: (bookingId) => limitCustomerChange(c.env, bookingId),
    link: (booking) => assertLinkOpens(grant, booking),
    manageUrl: (booking) => manageUrl(c.env, origin(c), booking) ?? "",
    // Its messages count against the client address, as the manage routes' rate limit does.
    messageVisitor: await messageVisitor(clientAddress(c)),
    // A manage link changes a booking; it never books one with a reservation.
    reservationUsed: () => [],
  };
}

export const renderContext = (
  c: Context<OpenEnv>,
  workspace: { currency: string; locale: string },
) => ({ currency: workspace.currency, locale: workspace.locale, origin: origin(c) });
