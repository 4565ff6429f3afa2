CREATE TABLE `batch_guards` (
	`reason` text NOT NULL,
	CONSTRAINT "batch_guard_failed" CHECK(0)
);
