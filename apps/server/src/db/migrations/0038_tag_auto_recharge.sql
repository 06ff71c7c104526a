CREATE TABLE "auto_recharge_pause_mails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"recipient" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"claimed_until" timestamp (6) with time zone,
	"mailed_at" timestamp (6) with time zone
);
--> statement-breakpoint
CREATE TABLE "tag_auto_recharge" (
	"account_id" uuid NOT NULL,
	"tag" text NOT NULL,
	"merchant_id" uuid NOT NULL,
	"enabled" boolean NOT NULL,
	"threshold" bigint NOT NULL,
	"target" bigint NOT NULL,
	"daily_max" bigint NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL,
	CONSTRAINT "tag_auto_recharge_account_id_tag_pk" PRIMARY KEY("account_id","tag")
);
--> statement-breakpoint
ALTER TABLE "card_auto_recharge" ADD COLUMN "source" text DEFAULT 'CARD' NOT NULL;--> statement-breakpoint
ALTER TABLE "card_auto_recharge" ADD COLUMN "source_tag" text;--> statement-breakpoint
ALTER TABLE "auto_recharge_pause_mails" ADD CONSTRAINT "auto_recharge_pause_mails_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_pause_mails" ADD CONSTRAINT "auto_recharge_pause_mails_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_pause_mails" ADD CONSTRAINT "auto_recharge_pause_mails_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_auto_recharge" ADD CONSTRAINT "tag_auto_recharge_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tag_auto_recharge" ADD CONSTRAINT "tag_auto_recharge_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_recharge_pause_mails_unsent_idx" ON "auto_recharge_pause_mails" USING btree ("created_at") WHERE mailed_at is null;