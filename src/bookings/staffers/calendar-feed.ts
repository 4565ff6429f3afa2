import type { Database } from "../../db/client";
import { type FeedContent, loadFeed, saveFeedToken } from "../queries/calendar-feeds";
import type { Scope } from "../../db/scope";
import { MINUTE } from "../../platform/rules/duration";
import { notFound } from "../../platform/errors";
import { generateFeedToken, hashFeedToken, isFeedToken } from "../feed-token";

/** What a feed shows: the staffer's bookings and blocked spots that start in this window. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 180;
/**
 * At most this many bookings, and as many blocked spots, in one feed (read in one round trip).
 * 210 days at 14 bookings every day; past it the feed keeps the earliest (the nearest weeks)
 * and leaves the latest out, and says so in a header (docs/api.md).
 */
export const FEED_CAP = 3000;

const DAY_MS = 24 * 60 * MINUTE;

/**
 * A new secret feed token for the staffer, replacing the one it had: the old URL answers 404
 * from this write on. 404 Staffer when the workspace has no such staffer. Returns the token
 * (stored only as its hash: shown once, as an API key is).
 */
export async function rotateCalendarFeed(
  scope: Scope,
  stafferId: string,
  now: number,
): Promise<string> {
  const token = generateFeedToken(scope.workspaceId);
  const saved = await saveFeedToken(scope, stafferId, await hashFeedToken(token), now);
  if (!saved) throw notFound("Staffer");
  return token;
}

/**
 * The feed a token names, over its window around `now`; null when no feed has that token
 * (never issued, rotated away, or not shaped like a token: nothing is read then).
 */
export async function readCalendarFeed(
  db: Database,
  token: string,
  now: number,
): Promise<FeedContent | null> {
  if (!isFeedToken(token)) return null;
  return loadFeed(db, await hashFeedToken(token), {
    from: now - FEED_DAYS_BACK * DAY_MS,
    to: now + FEED_DAYS_AHEAD * DAY_MS,
    cap: FEED_CAP,
  });
}
