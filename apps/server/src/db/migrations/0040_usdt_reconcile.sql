ALTER TABLE "deposits" ADD COLUMN "chain_seen_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "usdt_rate_micros" bigint;--> statement-breakpoint
ALTER TABLE "deposits" ADD COLUMN "usdt_fee_bps" integer;--> statement-breakpoint
ALTER TABLE "usdt_addresses" ADD COLUMN "checked_at" timestamp (6) with time zone;--> statement-breakpoint
CREATE INDEX "deposits_usdt_pending" ON "deposits" USING btree ("chain_seen_at") WHERE "deposits"."kind" = 'USDT' and "deposits"."status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "usdt_addresses_checked" ON "usdt_addresses" USING btree ("checked_at" NULLS FIRST);--> statement-breakpoint
UPDATE "deposits" SET "amount" = "amount" * 10000 WHERE "kind" = 'USDT';
