import { type RouteHandler, z } from "@hono/zod-openapi";
import type { OpenEnv } from "../../../http/env";
import { now } from "../../../platform/clock";
import { notFound } from "../../../platform/errors";
import { defineRoute } from "../../../http/operations";
import { headerRef } from "../../../http/openapi-headers";
import { errorCodes, queryErrors, rateLimitError } from "../../../http/responses";
import { readCalendarFeed } from "../../staffers/calendar-feed";
import { feedWorkspace } from "../../feed-token";
import { routeLink } from "../../../http/route-link";
import { renderStafferFeed } from "../../views/staffer-feed";
import { contentTag, matchesTag } from "./etag";

export const route = defineRoute({
  operationId: "getStafferCalendarFeed",
  keys: "none",
  method: "get",
  // The file name is the token and `.ics` (one path segment, as calendar apps expect a file).
  path: "/feeds/{feed_file}",
  tags: ["Staff calendar"],
  summary: "A staffer's calendar feed (iCalendar)",
  description:
    "Needs no API key: the URL's token is the credential (made by `POST /staffers/{staffer_uuid}/calendar-feed`). RFC 5545: one VEVENT per booking (UID the booking's uuid, SEQUENCE its version, which every change raises; DTSTAMP and LAST-MODIFIED its last change; STATUS:CANCELLED once cancelled) and one per blocked spot, for those that start from 30 days ago to 180 days ahead, at most 3,000 of each (the latest are left out past it, and `Feed-Truncated: true` says so). `ETag` is the content's hash: `If-None-Match` with it answers 304 while nothing changed.",
  request: {
    params: z.object({
      feed_file: z.string().max(100).openapi({
        description: "`<token>.ics`",
        example: "feed_PyuMHppNTm-LehwtPk9aa96iu_HI8RZLPVxS8q3qDjwfHN8uimuU96w_i6CmWx5M.ics",
      }),
    }),
    headers: z.object({
      "if-none-match": z
        .string()
        .max(1024)
        .optional()
        .openapi({ description: "An ETag of this feed: 304 while the feed is still that one." }),
    }),
  },
  responses: {
    200: {
      content: { "text/calendar": { schema: z.string() } },
      description: "The feed",
      headers: {
        ETag: headerRef("ETag"),
        "Cache-Control": headerRef("CacheControl"),
        "Feed-Truncated": headerRef("FeedTruncated"),
      },
    },
    304: {
      description: "Not modified: the ETag in If-None-Match is the feed's",
      headers: { ETag: headerRef("ETag"), "Cache-Control": headerRef("CacheControl") },
    },
    ...rateLimitError,
    ...queryErrors,
    404: errorCodes("No feed has this token (never made, or replaced by a newer one)", [
      "not_found",
    ]),
  },
});

/** Calendar apps poll; each poll revalidates (the ETag makes an unchanged feed a 304). */
const CACHE_CONTROL = "private, no-cache";

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { feed_file: file } = c.req.valid("param");
  const token = file.endsWith(".ics") ? file.slice(0, -".ics".length) : "";
  // An unknown token, a replaced one, a file name that is no token and one naming a workspace
  // that is not there (or not the feed's) look the same.
  const workspaceId = feedWorkspace(token);
  const db = workspaceId ? await routeLink(c, workspaceId) : null;
  const feed = db ? await readCalendarFeed(db, token, now()) : null;
  if (!feed || feed.staffer.workspaceId !== workspaceId) throw notFound("Calendar feed");
  const text = renderStafferFeed(feed);
  const etag = await contentTag(text);
  if (matchesTag(c.req.valid("header")["if-none-match"], etag))
    return c.body(null, 304, { etag, "cache-control": CACHE_CONTROL });
  return c.body(text, 200, {
    "content-type": "text/calendar; charset=utf-8",
    etag,
    "cache-control": CACHE_CONTROL,
    ...(feed.truncated ? { "feed-truncated": "true" } : {}),
  });
};
