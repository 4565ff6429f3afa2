import { runBatch } from "../db/client";
import { isGuardFailure } from "../db/constraints";
import { guard } from "../db/guards";
import { cancelEntry, entryAtVersion, findEntry } from "./queries/waitlist";
import type { Scope } from "../db/scope";
import type { Defer } from "../calendar/client";
import type { Env } from "../platform/env";
import { ApiError, notFound } from "../platform/errors";
import { releaseReservation } from "../calendar/holds/release";

/** Who deletes: a publishable key reaches only the entries it made itself. */
export interface Leaver {
  apiKeyId: string;
  publishable: boolean;
}

/**
 * Takes an entry off the waitlist: an offer it holds is released first (its
 * time goes to the next in line), then the entry is canceled at the version
 * read; an entry the desk changed meanwhile is read again.
 */
export async function leaveWaitlist(
  deps: { scope: Scope; env: Env; defer?: Defer },
  id: string,
  by: Leaver,
): Promise<void> {
  const { scope } = deps;
  for (let attempt = 0; attempt < 3; attempt++) {
    const entry = await findEntry(scope, id);
    if (
      !entry ||
      entry.status === "canceled" ||
      (by.publishable && entry.apiKeyId !== by.apiKeyId)
    ) {
      throw notFound("Waitlist entry");
    }
    if (entry.status === "booked" || entry.status === "expired") {
      throw new ApiError(
        "conflict",
        `The entry is ${entry.status}; only a waiting or offered entry can be deleted.`,
      );
    }
    if (entry.status === "offered" && entry.offerReservationId) {
      await releaseReservation(deps, entry.offerReservationId).catch((error: unknown) => {
        // Booked, expired or taken over meanwhile: the entry says which, on the next read.
        if (!(error instanceof ApiError && error.code === "not_found")) throw error;
      });
    }
    const now = Date.now();
    try {
      await runBatch(scope.db, [
        guard(scope, entryAtVersion(scope, entry.id, entry.version)),
        ...cancelEntry(scope, entry, now),
      ]);
      return;
    } catch (error) {
      if (!isGuardFailure(error)) throw error;
    }
  }
  throw new ApiError("conflict", "The entry keeps changing; try again.");
}
