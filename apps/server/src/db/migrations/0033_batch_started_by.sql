ALTER TABLE "card_batches" ADD COLUMN "started_by" uuid;--> statement-breakpoint
ALTER TABLE "card_batches" ADD CONSTRAINT "card_batches_started_by_members_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- the batches made before: started by the member their first card went to (who opened them, unless it was given on since)
UPDATE "card_batches" SET "started_by" = (SELECT "holder_member_id" FROM "cards" WHERE "cards"."batch_id" = "card_batches"."id" ORDER BY "cards"."created_at", "cards"."id" LIMIT 1);--> statement-breakpoint
CREATE INDEX "card_batches_started_by" ON "card_batches" USING btree ("started_by","created_at");