CREATE TABLE "auto_recharge_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"status" text NOT NULL,
	"amount" bigint,
	"reason" text,
	"created_at" timestamp (6) with time zone NOT NULL,
	"finished_at" timestamp (6) with time zone
);
--> statement-breakpoint
CREATE TABLE "balance_alert_marks" (
	"account_id" uuid NOT NULL,
	"subject" text NOT NULL,
	CONSTRAINT "balance_alert_marks_account_id_subject_pk" PRIMARY KEY("account_id","subject")
);
--> statement-breakpoint
CREATE TABLE "balance_alert_settings" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"wallet" jsonb NOT NULL,
	"card_default" bigint,
	"updated_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "balance_alerts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"card_id" uuid,
	"currency" text NOT NULL,
	"threshold" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"messaged_at" timestamp (6) with time zone,
	"mailed_at" timestamp (6) with time zone
);
--> statement-breakpoint
CREATE TABLE "card_auto_recharge" (
	"card_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"enabled" boolean NOT NULL,
	"threshold" bigint NOT NULL,
	"target" bigint NOT NULL,
	"daily_max" bigint NOT NULL,
	"status" text NOT NULL,
	"paused_reason" text,
	"pending" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_watches" (
	"holder_id" uuid NOT NULL,
	"watch_key" text NOT NULL,
	"merchant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"owner_id" uuid,
	"currency" text,
	"below" bigint NOT NULL,
	CONSTRAINT "ledger_watches_holder_id_watch_key_pk" PRIMARY KEY("holder_id","watch_key")
);
--> statement-breakpoint
ALTER TABLE "auto_recharge_runs" ADD CONSTRAINT "auto_recharge_runs_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_runs" ADD CONSTRAINT "auto_recharge_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_recharge_runs" ADD CONSTRAINT "auto_recharge_runs_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alert_marks" ADD CONSTRAINT "balance_alert_marks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alert_settings" ADD CONSTRAINT "balance_alert_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alert_settings" ADD CONSTRAINT "balance_alert_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alerts" ADD CONSTRAINT "balance_alerts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alerts" ADD CONSTRAINT "balance_alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "balance_alerts" ADD CONSTRAINT "balance_alerts_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_auto_recharge" ADD CONSTRAINT "card_auto_recharge_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_auto_recharge" ADD CONSTRAINT "card_auto_recharge_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_auto_recharge" ADD CONSTRAINT "card_auto_recharge_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_watches" ADD CONSTRAINT "ledger_watches_holder_id_accounts_id_fk" FOREIGN KEY ("holder_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_watches" ADD CONSTRAINT "ledger_watches_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_recharge_runs_card_idx" ON "auto_recharge_runs" USING btree ("card_id","created_at");