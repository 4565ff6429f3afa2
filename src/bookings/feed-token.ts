import { sha256Hex } from "../tenancy/api-keys";
import { workspaceOfToken, workspaceToken } from "../platform/workspace-token";

/**
 * A staffer's calendar feed token: `feed_` and a workspace token (the workspace's uuid and 32
 * random bytes, src/platform/workspace-token.ts): the feed URL carries no API key, and the token
 * says which workspace's shard to look it up on. The prefix lets the logs recognise and redact
 * one (src/platform/log.ts) wherever it appears.
 */
const PREFIX = "feed_";

export const generateFeedToken = (workspaceId: string) => `${PREFIX}${workspaceToken(workspaceId)}`;

/** The workspace a feed token names; null for text that is no feed token (nothing is read then). */
export const feedWorkspace = (text: string): string | null =>
  text.startsWith(PREFIX) ? workspaceOfToken(text.slice(PREFIX.length)) : null;

/** Whether the text is shaped like a feed token (anything else is no feed, unread). */
export const isFeedToken = (text: string) => feedWorkspace(text) !== null;

/**
 * What is stored and looked up: the SHA-256 of the token. A 256-bit random token needs no salt
 * or slow hash, and the lookup by hash needs no constant-time compare (a hash gives nothing away
 * about a token an attacker could use).
 */
export const hashFeedToken = (token: string) => sha256Hex(token);
