import type { BatchItem } from "drizzle-orm/batch";

/** One statement of a D1 batch: what the use-cases build and the db layer runs. */
export type Statement = BatchItem<"sqlite">;
