import type { Scope } from "../../db/scope";
import { InvalidError } from "../../platform/errors";
import type { Problem } from "../../platform/rules/problems";
import { knownServiceIds } from "../queries/templates";

/** A credit line of a template: the services it pays for and how many. */
export interface TemplateCredit {
  serviceIds: string[];
  count: number;
}

/** A service a credit names that is not the workspace's (the credit's and the service's positions). */
export type CreditSubject = { is: "credit service"; credit: number; service: number };

/**
 * Refuses credits naming a service the workspace does not have (another
 * workspace's is unknown here too), every one at its position; else the
 * credits as stored.
 */
export async function checkedCredits(scope: Scope, credits: readonly TemplateCredit[]) {
  const known = await knownServiceIds(scope, [...new Set(credits.flatMap((c) => c.serviceIds))]);
  const problems: Problem<CreditSubject>[] = [];
  credits.forEach((c, credit) =>
    c.serviceIds.forEach((id, service) => {
      if (!known.has(id))
        problems.push({
          about: { is: "credit service", credit, service },
          messages: ["Unknown service."],
        });
    }),
  );
  if (problems.length > 0) throw new InvalidError(problems);
  return credits.map((c) => ({ service_ids: [...c.serviceIds], count: c.count }));
}
