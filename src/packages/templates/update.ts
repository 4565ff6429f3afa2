import type { Scope } from "../../db/scope";
import { ApiError, notFound } from "../../platform/errors";
import {
  findTemplate,
  type TemplateColumns,
  type TemplateRow,
  updateTemplateAt,
} from "../queries/templates";
import { checkedCredits, type TemplateCredit } from "./credits";

/** What changes (an omitted field keeps its value). */
export interface TemplateChange {
  name?: string | undefined;
  price?: number | undefined;
  live?: boolean | undefined;
  validDays?: number | undefined;
  credits?: TemplateCredit[] | undefined;
  /** null: no longer a membership. */
  renews?: "month" | null | undefined;
}

const ATTEMPTS = 3;

/**
 * Changes a template. Selling copies what a customer package needs (name,
 * price, credits, validity, renewal), so a change applies to future sales
 * only. Written at the version read: a change racing another is read again.
 */
export async function updateTemplate(
  scope: Scope,
  id: string,
  change: TemplateChange,
): Promise<TemplateRow> {
  const credits = change.credits ? await checkedCredits(scope, change.credits) : undefined;
  const columns: TemplateColumns = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.price !== undefined ? { price: change.price } : {}),
    ...(change.live !== undefined ? { live: change.live } : {}),
    ...(change.validDays !== undefined ? { validDays: change.validDays } : {}),
    ...(credits ? { credits } : {}),
    ...(change.renews !== undefined ? { renews: change.renews } : {}),
  };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const read = await findTemplate(scope, id);
    if (!read) throw notFound("Package");
    const written = await updateTemplateAt(scope, read, columns, Date.now());
    if (written) return written;
  }
  throw new ApiError("conflict", "The package keeps changing; try again.");
}
