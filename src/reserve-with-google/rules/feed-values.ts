import { minorUnitDigits } from "../../platform/rules/money";

/** An amount in minor units as Google's micros: 35.00 EUR (3500) is 35000000. */
export const microsOf = (minor: number, currency: string): number =>
  minor * 10 ** (6 - minorUnitDigits(currency));

const HOUR_MS = 3_600_000;

/**
 * The nonce of a feed generation: the UTC hour it was made in (hours since the
 * epoch), so the shards of one availability feed fetched within one hour carry
 * the same one and each later hour's generation a new, larger one. An uploader
 * that spans an hour boundary passes its own (`?nonce=`).
 */
export const hourNonce = (nowMs: number): string => String(Math.floor(nowMs / HOUR_MS));
