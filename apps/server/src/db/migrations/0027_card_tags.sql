ALTER TABLE "cards" ADD COLUMN "tags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "cards_tags" ON "cards" USING gin ("tags");