/** An id for the row named by `key` (its booking, service and resource within the write). */
export type PlanIds = (key: string) => string;

/**
 * The same id for the same row in every plan of one write. A write that plans
 * again around a refused unit or staffer keeps the claims other calendars
 * granted only when they are the same claims, entry ids included; with fresh
 * ids every replan would claim every calendar again.
 */
export function stableIds(): PlanIds {
  const ids = new Map<string, string>();
  return (key) => {
    let id = ids.get(key);
    if (!id) {
      id = crypto.randomUUID();
      ids.set(key, id);
    }
    return id;
  };
}
