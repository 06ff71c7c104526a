CREATE TABLE "crypto_gateway_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usdt_addresses" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usdt_settings" (
	"merchant_id" uuid PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"rate_micros" bigint NOT NULL,
	"fee_bps" integer NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usdt_settings_rate" CHECK ("usdt_settings"."rate_micros" > 0),
	CONSTRAINT "usdt_settings_fee" CHECK ("usdt_settings"."fee_bps" between 0 and 1000)
);
--> statement-breakpoint
ALTER TABLE "usdt_addresses" ADD CONSTRAINT "usdt_addresses_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdt_addresses" ADD CONSTRAINT "usdt_addresses_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usdt_settings" ADD CONSTRAINT "usdt_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usdt_addresses_address_uq" ON "usdt_addresses" USING btree ("address");