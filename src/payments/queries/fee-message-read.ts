import { eq } from "drizzle-orm";
import { workspaces } from "../../db/schema";
import { named, read } from "../../db/reads";
import type { Scope } from "../../db/scope";
import { bookingRead } from "../../bookings/queries/bookings";
import { changeMessagesRead } from "../../messages/queries/messages";

/**
 * What a fee's message is written from, in one round trip: the booking's
 * record, its customer, settings and location (as a change's messages read
 * them), and the workspace's currency and language (a reconcile pass has no
 * request to take them from).
 */
export const feeMessageRead = (scope: Scope, bookingId: string) =>
  named({
    record: bookingRead(scope, bookingId),
    told: changeMessagesRead(scope, bookingId),
    workspace: read(
      [
        scope.db
          .select({ currency: workspaces.currency, locale: workspaces.locale })
          .from(workspaces)
          .where(eq(workspaces.id, scope.workspaceId)),
      ] as const,
      ([rows]) => rows[0] ?? null,
    ),
  });
