/** Instants are stored as epoch milliseconds and rendered as ISO 8601 UTC without fractions. */
export const toIso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
export const now = () => Date.now();
/** The UTC calendar date (YYYY-MM-DD) of an instant. */
export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
