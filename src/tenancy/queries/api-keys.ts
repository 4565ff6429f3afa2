import { generateApiKey, sha256Hex } from "../api-keys";
import type { ApiKeyKind } from "../../platform/caller";
import type { Database } from "../../db/client";
import { apiKeys } from "../../db/schema";

export interface NewApiKey {
  kind: ApiKeyKind;
  /** Normalised origins; empty for secret keys. */
  allowedOrigins: string[];
}

/** A new key's insert statement (to batch with other writes) and the key, shown once. */
export async function insertApiKey(
  db: Database,
  workspaceId: string,
  createdAt: number,
  { kind, allowedOrigins }: NewApiKey = { kind: "secret", allowedOrigins: [] },
) {
  const { id, key } = generateApiKey(kind);
  const keyHash = await sha256Hex(key);
  return {
    id,
    apiKey: key,
    kind,
    allowedOrigins,
    statement: db
      .insert(apiKeys)
      .values({ id, workspaceId, keyHash, createdAt, kind, allowedOrigins }),
  };
}
