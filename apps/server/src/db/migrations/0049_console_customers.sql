CREATE INDEX "accounts_merchant_created" ON "accounts" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "card_transactions_merchant_created" ON "card_transactions" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "card_verifications_name_prefix" ON "card_verifications" USING btree ("merchant_id","real_name" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "cards_merchant_created" ON "cards" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deposit_references_prefix" ON "deposit_references" USING btree ("merchant_id","reference" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "members_phone_prefix" ON "members" USING btree ("merchant_id","phone" text_pattern_ops) WHERE status <> 'REMOVED';--> statement-breakpoint
CREATE INDEX "members_email_prefix" ON "members" USING btree ("merchant_id","email" text_pattern_ops) WHERE status <> 'REMOVED';