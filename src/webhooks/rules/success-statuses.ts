/** "200,201" → [200, 201]; the webhook's success_statuses. */
export const parseStatuses = (list: string): number[] =>
  list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
