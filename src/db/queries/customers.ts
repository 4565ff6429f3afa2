import { eq } from "drizzle-orm";
import { customers } from "../schema";
import { type Scope, whereIn } from "../scope";

export async function findCustomer(scope: Scope, id: string) {
  const [row] = await scope.db
    .select()
    .from(customers)
    .where(whereIn(scope, customers, eq(customers.id, id)))
    .limit(1);
  return row ?? null;
}
