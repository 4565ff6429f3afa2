import { eq } from "drizzle-orm";
import { type BookingForm, DEFAULT_FORM } from "../rules/booking-form";
import type { Database } from "../../db/client";
import { bookingForms } from "../../db/schema";
import type { Scope } from "../../db/scope";

type Row = typeof bookingForms.$inferSelect;

/** The statement reading a workspace's form, to ride in a request's read batch. */
export const selectBookingForm = (scope: Scope) =>
  scope.db.select().from(bookingForms).where(eq(bookingForms.workspaceId, scope.workspaceId));

/** The form a batch's rows describe: no row is the default, every field optional. */
export const toBookingForm = (rows: readonly Row[]): BookingForm => {
  const [row] = rows;
  if (!row) return DEFAULT_FORM;
  return {
    customer_email: row.customerEmail,
    customer_last_name: row.customerLastName,
    customer_middle_name: row.customerMiddleName,
    booking_comment: row.bookingComment,
  };
};

export async function loadBookingForm(scope: Scope): Promise<BookingForm> {
  return toBookingForm(await selectBookingForm(scope));
}

/** Replaces a workspace's whole form (the workspace must exist). */
export async function saveBookingForm(
  db: Database,
  workspaceId: string,
  form: BookingForm,
): Promise<BookingForm> {
  const values = {
    customerEmail: form.customer_email,
    customerLastName: form.customer_last_name,
    customerMiddleName: form.customer_middle_name,
    bookingComment: form.booking_comment,
    updatedAt: Date.now(),
  };
  const [row] = await db
    .insert(bookingForms)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: bookingForms.workspaceId, set: values })
    .returning();
  if (!row) throw new Error("upsert returned no row");
  return toBookingForm([row]);
}
