import { z } from "@hono/zod-openapi";
import { CustomerFields } from "../bookings/http/bookings/schema";

/** The customer fields a checkout keeps until the provider says it is paid (those of POST /bookings). */
export const CustomerFieldsSchema = z.object(CustomerFields);
