-- The one-statement path of 0006 and 0007 is gone: every operation now runs step by step in
-- TypeScript (src/modules/ledger/movement.ts), so each rule of the ledger is written once. Measured
-- with bench:ledger, the step-by-step path with the sharded merchant accounts alone holds the goal
-- (README "Money", Figures). The append-only trigger function of 0004 stays.
DROP FUNCTION ledger_move_one(uuid, text, text, uuid, uuid, bigint, bigint, boolean, text, smallint, bigint, uuid, text, uuid, text, text, timestamptz, uuid, bigint, text, text, text, text, text, text);
--> statement-breakpoint
DROP FUNCTION ledger_release_one(uuid, uuid, timestamptz, text, text, text);
--> statement-breakpoint
DROP FUNCTION ledger_decimal(bigint);
