ALTER TABLE "deposits" ADD COLUMN "mail_claimed_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "deposit_statement_lines" ADD COLUMN "credited_by" text;--> statement-breakpoint
ALTER TABLE "deposit_statement_lines" ADD COLUMN "credited_at" timestamp (6) with time zone;