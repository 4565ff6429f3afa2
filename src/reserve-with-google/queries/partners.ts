import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { rwgPartners, workspaces } from "../../db/schema";

/**
 * The partner credentials named by a Basic auth user, with their workspace (settings and
 * shard): one statement on the directory, for authentication and routing.
 */
export async function partnerByUsername(directory: Database, username: string) {
  const [row] = await directory
    .select({ partner: rwgPartners, workspace: workspaces })
    .from(rwgPartners)
    .innerJoin(workspaces, eq(workspaces.id, rwgPartners.workspaceId))
    .where(eq(rwgPartners.username, username))
    .limit(1);
  return row;
}

/** A workspace's partner credentials (without the hash's use: for the settings' answer). */
export async function partnerOf(directory: Database, workspaceId: string) {
  const [row] = await directory
    .select()
    .from(rwgPartners)
    .where(eq(rwgPartners.workspaceId, workspaceId))
    .limit(1);
  return row;
}

/** The user name's holder, if another workspace holds it. */
export async function usernameHolder(directory: Database, username: string) {
  const [row] = await directory
    .select({ workspaceId: rwgPartners.workspaceId })
    .from(rwgPartners)
    .where(eq(rwgPartners.username, username))
    .limit(1);
  return row?.workspaceId;
}

export interface PartnerWrite {
  workspaceId: string;
  username: string;
  passwordHash: string;
  enabled: boolean;
  /** Google's partner id of the salon's own account; null: the platform's. */
  partnerId: string | null;
  now: number;
}

/**
 * Sets a workspace's credentials. The user name's unique index refuses one another workspace
 * took meanwhile (the caller reads that as a conflict).
 */
export async function savePartner(directory: Database, w: PartnerWrite) {
  await directory
    .insert(rwgPartners)
    .values({
      workspaceId: w.workspaceId,
      username: w.username,
      passwordHash: w.passwordHash,
      enabled: w.enabled,
      partnerId: w.partnerId,
      createdAt: w.now,
      updatedAt: w.now,
    })
    .onConflictDoUpdate({
      target: rwgPartners.workspaceId,
      set: {
        username: w.username,
        passwordHash: w.passwordHash,
        enabled: w.enabled,
        partnerId: w.partnerId,
        updatedAt: w.now,
      },
    });
}
