ALTER TABLE "accounts" ADD COLUMN "trx_failed_tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "trx_failed_window_start" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "trx_locked_until" timestamp (6) with time zone;