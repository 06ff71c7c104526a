CREATE TABLE "card_controls" (
	"card_id" uuid PRIMARY KEY NOT NULL,
	"single_limit" bigint,
	"daily_limit" bigint,
	"monthly_limit" bigint,
	"blocked_categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"allowed_countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "charges_owed" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"card_id" uuid,
	"kind" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"authorization_id" text NOT NULL,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charges_owed_amount" CHECK ("charges_owed"."amount" > 0),
	CONSTRAINT "charges_owed_kind" CHECK ("charges_owed"."kind" in ('DECLINED_FEE', 'SETTLEMENT_OVER'))
);
--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "decline_code" text;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "authorization_id" text;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "authorized_amount" bigint;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "hold_id" uuid;--> statement-breakpoint
ALTER TABLE "card_transactions" ADD COLUMN "memo" text;--> statement-breakpoint
ALTER TABLE "issuer_events" ADD COLUMN "answer" jsonb;--> statement-breakpoint
ALTER TABLE "station_messages" ADD COLUMN "content_expires_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "station_messages" ADD COLUMN "expired_content" text;--> statement-breakpoint
ALTER TABLE "card_controls" ADD CONSTRAINT "card_controls_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges_owed" ADD CONSTRAINT "charges_owed_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges_owed" ADD CONSTRAINT "charges_owed_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charges_owed" ADD CONSTRAINT "charges_owed_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "charges_owed_authorization_uq" ON "charges_owed" USING btree ("kind","authorization_id");--> statement-breakpoint
CREATE INDEX "charges_owed_account" ON "charges_owed" USING btree ("merchant_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "card_transactions_authorization_uq" ON "card_transactions" USING btree ("card_id","authorization_id") WHERE "card_transactions"."type" = 'CONSUME';--> statement-breakpoint
CREATE INDEX "card_transactions_authorization" ON "card_transactions" USING btree ("authorization_id");