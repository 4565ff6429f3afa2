/**
 * The most packages one order may issue (units over all its package lines).
 * Each is a row, up to 10 credit rows and an event, all written in the
 * paying batch, which D1 caps at 100 statements: 20 leave room for the rest.
 */
export const MAX_PACKAGES_PER_ORDER = 20;
