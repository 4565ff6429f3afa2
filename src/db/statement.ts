import type { SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";

/**
 * One statement of a D1 batch (the batch runs as one transaction). Use-cases
 * collect these from the builders of src/db/queries and hand them to
 * `runBatch`, without importing drizzle themselves.
 */
export type Statement = BatchItem<"sqlite">;

/**
 * A SQL condition built in src/db (a guard's or a batch check's), passed
 * through a use-case to the builder that puts it in a statement.
 */
export type Condition = SQL;
