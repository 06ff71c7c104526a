ALTER TABLE "cards" ADD COLUMN "bin" text;--> statement-breakpoint
CREATE INDEX "card_transactions_account_consume" ON "card_transactions" USING btree ("account_id","created_at") WHERE "card_transactions"."type" = 'CONSUME';--> statement-breakpoint
-- cards opened before: their product's BIN, which every number of the product starts with
UPDATE "cards" SET "bin" = "card_products"."bin" FROM "card_products" WHERE "card_products"."id" = "cards"."product_id" AND "cards"."bin" IS NULL;
