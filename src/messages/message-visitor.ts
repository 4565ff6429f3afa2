import { sha256Hex } from "../tenancy/api-keys";

/**
 * Who a customer's write counts as for the daily bound on the messages it
 * causes: the client address (an IPv6 /64, as every per-address limit counts
 * it), hashed so the address itself is not stored. The same address through a
 * publishable key (any of the workspace's) or a manage link is one visitor,
 * so neither is the way around the other.
 */
export const messageVisitor = (address: string) => sha256Hex(`messages\n${address}`);
