import { z } from "zod";
import type { Database } from "../../db/client";
import { readNotificationSettings } from "../queries/message-delivery";
import type { Sender } from "./providers/types";

/**
 * The part of a workspace's notification settings delivery reads: who its
 * e-mails are from. Read leniently (the settings route validates what it
 * saves): a field that is missing or not a string is as if unset.
 */
const text = z.string().trim().min(1).optional().catch(undefined);
const SenderSettings = z
  .object({
    email: z
      .object({ from_name: text, from_email: text, reply_to: text })
      .optional()
      .catch(undefined),
  })
  .catch({});

/** The sender of one workspace's e-mails: always the message's own workspace. */
export async function senderOf(db: Database, workspaceId: string): Promise<Sender> {
  const settings = SenderSettings.parse(await readNotificationSettings(db, workspaceId));
  return {
    fromEmail: settings.email?.from_email ?? null,
    fromName: settings.email?.from_name ?? null,
    replyTo: settings.email?.reply_to ?? null,
  };
}
