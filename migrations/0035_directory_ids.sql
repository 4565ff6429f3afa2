-- Ids the API shows as integers and a workspace keeps wherever it moves (webhooks) are drawn
-- from one sequence in the directory, so no two shards ever give out the same one. Only the
-- directory's row is used; it starts past every id given out before shards.
CREATE TABLE `id_sequences` (
	`name` text PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `id_sequences` (`name`, `last`) SELECT 'webhooks', coalesce(max(`id`), 0) FROM `webhooks`;
