CREATE TABLE "announcement_reads" (
	"announcement_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"read_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"published_at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "station_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"type" text DEFAULT 'NOTICE' NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"status" text DEFAULT 'success' NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"read_at" timestamp (6) with time zone
);
--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_announcement_id_announcements_id_fk" FOREIGN KEY ("announcement_id") REFERENCES "public"."announcements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement_reads" ADD CONSTRAINT "announcement_reads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcements" ADD CONSTRAINT "announcements_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_messages" ADD CONSTRAINT "station_messages_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_messages" ADD CONSTRAINT "station_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "announcement_reads_uq" ON "announcement_reads" USING btree ("account_id","announcement_id");--> statement-breakpoint
CREATE INDEX "announcements_merchant_idx" ON "announcements" USING btree ("merchant_id","published_at");--> statement-breakpoint
CREATE INDEX "station_messages_account_idx" ON "station_messages" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "station_messages_unread_idx" ON "station_messages" USING btree ("account_id","read_at");