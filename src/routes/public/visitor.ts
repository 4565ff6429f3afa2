import type { Context } from "hono";
import type { PublicEnv } from "../../env";
import { sha256Hex } from "../../lib/api-keys";
import { clientAddress } from "../../middleware/rate-limit";

/**
 * The visitor, as far as a publishable key can tell one: the key and the
 * client address (an IPv6 /64), hashed so the address itself is not stored.
 * Holds and bookings are capped per visitor. Undefined for a secret key (staff).
 */
export const publishableVisitor = async (c: Context<PublicEnv>): Promise<string | undefined> => {
  const key = c.var.apiKey;
  if (key.kind !== "publishable") return undefined;
  return sha256Hex(`${key.id}\n${clientAddress(c)}`);
};
