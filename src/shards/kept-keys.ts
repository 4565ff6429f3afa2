import type { Database } from "../db/client";
import { integerKeys, keysTakenByOthers } from "./queries/rows";
import { KEPT_INTEGER_KEYS } from "./rules/tables";

/**
 * A table whose integer keys the API shows (a webhook's id) keeps them in a
 * move; every shard numbers its own, so the target may give one of them to
 * another workspace already. Such a move cannot be done without changing an
 * id integrators stored: it is refused, naming the ids.
 */
export async function checkKeptKeys(source: Database, target: Database, workspaceId: string) {
  for (const table of KEPT_INTEGER_KEYS) {
    const ids = (await integerKeys(source, table, workspaceId)).map((r) => r.id);
    if (ids.length === 0) continue;
    const taken = await keysTakenByOthers(target, table, workspaceId, ids);
    if (taken.length > 0) {
      throw new KeysTaken(
        table,
        taken.map((r) => r.id),
      );
    }
  }
}

export class KeysTaken extends Error {
  constructor(
    readonly table: string,
    readonly ids: number[],
  ) {
    super(`move: ${table} ids ${ids.join(", ")} belong to another workspace on the target`);
    this.name = "KeysTaken";
  }
}
