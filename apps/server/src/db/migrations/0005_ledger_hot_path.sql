ALTER TABLE "ledger_holds" DROP CONSTRAINT "ledger_holds_merchant_id_merchants_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_holds" DROP CONSTRAINT "ledger_holds_holder_id_accounts_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_idempotency_keys" DROP CONSTRAINT "ledger_idempotency_keys_merchant_id_merchants_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_merchant_id_merchants_id_fk";
--> statement-breakpoint
ALTER TABLE "ledger_transactions" DROP CONSTRAINT "ledger_transactions_holder_id_accounts_id_fk";
--> statement-breakpoint
DROP INDEX "ledger_transactions_holder_idx";--> statement-breakpoint
DROP INDEX "ledger_transactions_reverses_uq";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "frozen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_reverses_uq" ON "ledger_transactions" USING btree ("reverses_id") WHERE reverses_id is not null;--> statement-breakpoint
-- wallets frozen before this migration keep their ledger rows frozen
UPDATE "ledger_accounts" la SET "frozen" = true FROM "wallets" w WHERE la."kind" = 'WALLET' AND la."owner_id" = w."account_id" AND la."merchant_id" = w."merchant_id" AND w."status" <> 'BALANCE_STATUS_AVAILABLE';
