-- An account's balance sums every payment it took or gave back, so no per-request cap bounds it.
-- The API refuses (422) a payment or refund that would take it outside ±(2^53 − 1), the range of
-- exact integers in JSON and JS; these triggers are the last line for two payments racing past
-- it. Their message carries `batch_guard_failed`, so the loser is handled like any refused batch
-- guard: it retries on fresh state, where the API's own check answers 422.
CREATE TRIGGER `accounts_balance_range_update` BEFORE UPDATE OF `balance` ON `accounts`
WHEN abs(NEW.`balance`) > 9007199254740991
BEGIN
	SELECT RAISE(ABORT, 'batch_guard_failed: account balance outside the exact integer range');
END;
--> statement-breakpoint
CREATE TRIGGER `accounts_balance_range_insert` BEFORE INSERT ON `accounts`
WHEN abs(NEW.`balance`) > 9007199254740991
BEGIN
	SELECT RAISE(ABORT, 'batch_guard_failed: account balance outside the exact integer range');
END;
