CREATE TABLE "card_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"status" text NOT NULL,
	"nickname_prefix" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount" bigint NOT NULL,
	"total_cost" bigint NOT NULL,
	"success_count" integer DEFAULT 0 NOT NULL,
	"fail_count" integer DEFAULT 0 NOT NULL,
	"open_key" text NOT NULL,
	"open_fingerprint" text NOT NULL,
	"message_id" uuid,
	"created_at" timestamp (6) with time zone NOT NULL,
	"finished_at" timestamp (6) with time zone,
	CONSTRAINT "card_batches_status" CHECK ("card_batches"."status" in ('RUNNING', 'SUCCESS', 'FAIL')),
	CONSTRAINT "card_batches_counts" CHECK ("card_batches"."success_count" >= 0 and "card_batches"."fail_count" >= 0 and "card_batches"."success_count" + "card_batches"."fail_count" <= "card_batches"."quantity")
);
--> statement-breakpoint
CREATE TABLE "card_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"status" text NOT NULL,
	"selection" jsonb NOT NULL,
	"columns" jsonb NOT NULL,
	"include_sensitive" boolean NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"file_name" text NOT NULL,
	"size" bigint,
	"error" text,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"started_at" timestamp (6) with time zone,
	"finished_at" timestamp (6) with time zone,
	"expires_at" timestamp (6) with time zone,
	CONSTRAINT "card_exports_status" CHECK ("card_exports"."status" in ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'EXPIRED'))
);
--> statement-breakpoint
ALTER TABLE "card_batches" ADD CONSTRAINT "card_batches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_batches" ADD CONSTRAINT "card_batches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_batches" ADD CONSTRAINT "card_batches_product_id_card_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."card_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_exports" ADD CONSTRAINT "card_exports_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_exports" ADD CONSTRAINT "card_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_batches_open_key_uq" ON "card_batches" USING btree ("account_id","open_key");--> statement-breakpoint
CREATE UNIQUE INDEX "card_batches_one_running_uq" ON "card_batches" USING btree ("account_id") WHERE status = 'RUNNING';--> statement-breakpoint
CREATE INDEX "card_batches_account_created" ON "card_batches" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "card_exports_account_created" ON "card_exports" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "card_exports_expiring" ON "card_exports" USING btree ("expires_at") WHERE status = 'DONE';--> statement-breakpoint
CREATE INDEX "cards_batch" ON "cards" USING btree ("batch_id") WHERE batch_id is not null;