DROP INDEX "card_verifications_name_prefix";--> statement-breakpoint
DROP INDEX "deposit_references_prefix";--> statement-breakpoint
DROP INDEX "members_phone_prefix";--> statement-breakpoint
DROP INDEX "members_email_prefix";--> statement-breakpoint
CREATE INDEX "card_verifications_name_prefix" ON "card_verifications" USING btree ("merchant_id","real_name" text_pattern_ops,"account_id");--> statement-breakpoint
CREATE INDEX "deposit_references_prefix" ON "deposit_references" USING btree ("merchant_id","reference" text_pattern_ops,"account_id");--> statement-breakpoint
CREATE INDEX "members_phone_prefix" ON "members" USING btree ("merchant_id","phone" text_pattern_ops,"account_id") WHERE status <> 'REMOVED';--> statement-breakpoint
CREATE INDEX "members_email_prefix" ON "members" USING btree ("merchant_id","email" text_pattern_ops,"account_id") WHERE status <> 'REMOVED';