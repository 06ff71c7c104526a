CREATE TABLE "card_reveal_grants" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"granted_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_reveals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"ip" text NOT NULL,
	"user_agent" text NOT NULL,
	"revealed_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "card_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"merchant_name" text,
	"mcc" text,
	"country" text,
	"decline_reason" text,
	"ledger_transaction_id" uuid,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp (6) with time zone,
	CONSTRAINT "card_transactions_amount" CHECK ("card_transactions"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"product_id" uuid NOT NULL,
	"nickname" text NOT NULL,
	"brand" text NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"last4" text,
	"secret_sealed" text,
	"sealed_key_id" text,
	"frozen_by" text,
	"status_reason" text,
	"failure_reason" text,
	"batch_id" uuid,
	"open_key" text NOT NULL,
	"open_fingerprint" text NOT NULL,
	"first_load" bigint NOT NULL,
	"open_fee" bigint NOT NULL,
	"topup_fee" bigint NOT NULL,
	"fee_hold_id" uuid,
	"load_hold_id" uuid,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"issued_at" timestamp (6) with time zone,
	"closed_at" timestamp (6) with time zone,
	CONSTRAINT "cards_status" CHECK ("cards"."status" in ('CARD_STATUS_INIT', 'NORMAL', 'FAIL', 'FREEZE', 'DELETE', 'FREEZING', 'DELETING', 'UNFREEZING')),
	CONSTRAINT "cards_frozen_by" CHECK ("cards"."frozen_by" is null or "cards"."frozen_by" in ('CUSTOMER', 'OPERATOR', 'ISSUER'))
);
--> statement-breakpoint
ALTER TABLE "card_reveal_grants" ADD CONSTRAINT "card_reveal_grants_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveal_grants" ADD CONSTRAINT "card_reveal_grants_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_reveals" ADD CONSTRAINT "card_reveals_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD CONSTRAINT "card_transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_product_id_card_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."card_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "card_reveals_account_at" ON "card_reveals" USING btree ("account_id","revealed_at");--> statement-breakpoint
CREATE INDEX "card_transactions_card_created" ON "card_transactions" USING btree ("card_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "card_transactions_ledger_uq" ON "card_transactions" USING btree ("ledger_transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_open_key_uq" ON "cards" USING btree ("account_id","open_key");--> statement-breakpoint
CREATE INDEX "cards_account_created" ON "cards" USING btree ("merchant_id","account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cards_account_product_status" ON "cards" USING btree ("account_id","product_id","status");