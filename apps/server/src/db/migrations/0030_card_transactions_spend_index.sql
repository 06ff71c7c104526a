-- Every card's transactions of an account, newest first (GET /card/transactions), and the spending summary
-- (GET /card/spending-summary) read the same index: the account's rows in time order, carrying every
-- column the summary filters on and sums, so a month of a million rows is read from the index alone
-- (an index-only scan once autovacuum has marked the pages visible) and never from the table.
DROP INDEX IF EXISTS "card_transactions_account_created";--> statement-breakpoint
CREATE INDEX "card_transactions_account_created" ON "card_transactions" USING btree ("account_id", "created_at" DESC, "id" DESC)
  INCLUDE ("merchant_id", "card_id", "type", "status", "currency", "amount", "decline_code", "mcc", "merchant_name");
