-- counters a crash may forget: no write-ahead log for them
CREATE UNLOGGED TABLE "api_key_rate" (
	"key_id" uuid PRIMARY KEY NOT NULL,
	"window_start" timestamp (6) with time zone NOT NULL,
	"calls" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_key_replays" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"api_key_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"answer" text,
	"claimed_at" timestamp (6) with time zone NOT NULL,
	"answered_at" timestamp (6) with time zone,
	CONSTRAINT "api_key_replays_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
ALTER TABLE "api_key_replays" ADD CONSTRAINT "api_key_replays_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;