import { generateApiKey, sha256Hex } from "../../lib/api-keys";
import type { Database } from "../client";
import { apiKeys } from "../schema";

/** A new key's insert statement (to batch with other writes) and the key, shown once. */
export async function insertApiKey(db: Database, workspaceId: string, createdAt: number) {
  const { id, key } = generateApiKey();
  const keyHash = await sha256Hex(key);
  return {
    id,
    apiKey: key,
    statement: db.insert(apiKeys).values({ id, workspaceId, keyHash, createdAt }),
  };
}
