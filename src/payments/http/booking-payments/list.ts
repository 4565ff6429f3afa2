import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { notFound } from "../../../platform/errors";
import { PaginationQuery, paginate, paginated, pageRequest } from "../../../platform/pagination";
import { BookingPath } from "../../../bookings/http/bookings/schema";
import { ledgerPage } from "../../queries/ledger-page";
import { LedgerEntrySchema, renderLedgerEntry } from "../../views/ledger-entry";

const LedgerList = paginated(LedgerEntrySchema, "LedgerEntryList");

export const route = defineRoute({
  operationId: "listBookingPayments",
  keys: "secret",
  method: "get",
  path: "/bookings/{booking_uuid}/payments",
  tags: ["Payments"],
  summary: "A booking's ledger: every movement of its money through the payment provider",
  description:
    "Oldest first: what was paid at checkout (deposit, prepayment) or the card saved, fees charged on a late cancel or a no-show, and refunds (the API's own and those made in the provider's dashboard). A row is `pending` while the provider's answer is not recorded yet.",
  request: { params: BookingPath, query: PaginationQuery },
  responses: {
    200: json(LedgerList, "A page of the booking's ledger"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("booking"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { booking_uuid: bookingId } = c.req.valid("param");
  const page = pageRequest(c.req.valid("query"));
  const { found, rows, total } = await ledgerPage(c.var.deps.scope, bookingId, page);
  if (!found) throw notFound("Booking");
  return c.json(paginate(c.req.url, rows.map(renderLedgerEntry), total, page), 200);
};
