import type { Scope } from "../../db/scope";
import { insertTemplate, type TemplateRow } from "../queries/templates";
import { checkedCredits, type TemplateCredit } from "./credits";

export interface NewTemplate {
  name: string;
  price: number;
  currency: string;
  credits: TemplateCredit[];
  validDays: number;
  /** "month" makes it a membership. */
  renews: "month" | null;
}

/** Creates a package template once every service its credits name is the workspace's. */
export async function createTemplate(scope: Scope, input: NewTemplate): Promise<TemplateRow> {
  const credits = await checkedCredits(scope, input.credits);
  const now = Date.now();
  const row: TemplateRow = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    name: input.name,
    price: input.price,
    currency: input.currency,
    credits,
    validDays: input.validDays,
    renews: input.renews,
    live: true,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
  await insertTemplate(scope, row);
  return row;
}
