CREATE TABLE "card_products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"brand" text NOT NULL,
	"bin" text NOT NULL,
	"currency" text NOT NULL,
	"open_fee" bigint NOT NULL,
	"topup_fee_rate" text NOT NULL,
	"topup_fee_fixed" bigint NOT NULL,
	"topup_fee_min" bigint,
	"topup_fee_max" bigint,
	"min_first_load" bigint NOT NULL,
	"max_balance" bigint NOT NULL,
	"decline_fee" bigint NOT NULL,
	"per_account_limit" integer NOT NULL,
	"max_per_batch" integer NOT NULL,
	"needs_secondary" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'ON' NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "card_products_amounts" CHECK ("card_products"."open_fee" >= 0 and "card_products"."topup_fee_fixed" >= 0 and "card_products"."min_first_load" >= 0 and "card_products"."max_balance" > 0 and "card_products"."decline_fee" >= 0),
	CONSTRAINT "card_products_status" CHECK ("card_products"."status" in ('ON', 'OFF'))
);
--> statement-breakpoint
CREATE TABLE "card_verifications" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"real_name" text,
	"id_number_sealed" text,
	"id_number_masked" text,
	"basic_at" timestamp (6) with time zone,
	"latin_name" text,
	"website" text,
	"secondary_at" timestamp (6) with time zone
);
--> statement-breakpoint
ALTER TABLE "card_products" ADD CONSTRAINT "card_products_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verifications" ADD CONSTRAINT "card_verifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_verifications" ADD CONSTRAINT "card_verifications_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_products_merchant_name" ON "card_products" USING btree ("merchant_id","name");