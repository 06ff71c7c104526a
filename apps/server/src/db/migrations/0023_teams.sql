CREATE TABLE "activity_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"member_id" uuid,
	"member_label" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"card_id" uuid,
	"amount" bigint,
	"currency" text,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"at" timestamp (6) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budget_usage" (
	"member_id" uuid NOT NULL,
	"month" text NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "budget_usage_member_id_month_pk" PRIMARY KEY("member_id","month")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"channel" text NOT NULL,
	"address" text NOT NULL,
	"email" text,
	"phone_prefix" text,
	"phone" text,
	"role" text NOT NULL,
	"monthly_budget" bigint,
	"invited_by" uuid NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"expires_at" timestamp (6) with time zone NOT NULL,
	"accepted_at" timestamp (6) with time zone,
	"accepted_member_id" uuid,
	"revoked_at" timestamp (6) with time zone
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"role" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"phone_prefix" text DEFAULT '86' NOT NULL,
	"phone" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"trx_password_hash" text,
	"failed_logins" integer DEFAULT 0 NOT NULL,
	"failed_window_start" timestamp (6) with time zone,
	"locked_until" timestamp (6) with time zone,
	"trx_failed_tries" integer DEFAULT 0 NOT NULL,
	"trx_failed_window_start" timestamp (6) with time zone,
	"trx_locked_until" timestamp (6) with time zone,
	"monthly_budget" bigint,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp (6) with time zone
);
--> statement-breakpoint
DROP INDEX "accounts_phone_uq";--> statement-breakpoint
DROP INDEX "accounts_email_uq";--> statement-breakpoint
DROP INDEX "login_attempts_account_at";--> statement-breakpoint
DROP INDEX "trusted_devices_account_idx";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "holder_member_id" uuid;--> statement-breakpoint
ALTER TABLE "login_attempts" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "reset_tickets" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "trusted_devices" ADD COLUMN "member_id" uuid;--> statement-breakpoint
-- every account so far becomes an account with one member, its owner, whose id is the account's:
-- the sessions, trusted devices, sign-in history, reset tickets and cards are theirs.
INSERT INTO "members" ("id", "merchant_id", "account_id", "role", "status", "phone_prefix", "phone", "email", "password_hash",
  "trx_password_hash", "failed_logins", "failed_window_start", "locked_until", "trx_failed_tries", "trx_failed_window_start",
  "trx_locked_until", "created_at")
SELECT "id", "merchant_id", "id", 'OWNER', 'ACTIVE', "phone_prefix", "phone", "email", "password_hash", "trx_password_hash",
  "failed_logins", "failed_window_start", "locked_until", "trx_failed_tries", "trx_failed_window_start", "trx_locked_until", "created_at"
FROM "accounts";--> statement-breakpoint
UPDATE "accounts" SET "name" = left("phone", 3) || '****' || right("phone", 4) || ' 的团队';--> statement-breakpoint
UPDATE "sessions" SET "member_id" = "account_id";--> statement-breakpoint
UPDATE "trusted_devices" SET "member_id" = "account_id";--> statement-breakpoint
UPDATE "login_attempts" SET "member_id" = "account_id";--> statement-breakpoint
UPDATE "reset_tickets" SET "member_id" = "account_id";--> statement-breakpoint
UPDATE "cards" SET "holder_member_id" = "account_id";--> statement-breakpoint
ALTER TABLE "sessions" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "trusted_devices" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "login_attempts" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reset_tickets" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ALTER COLUMN "holder_member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_log" ADD CONSTRAINT "activity_log_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_usage" ADD CONSTRAINT "budget_usage_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_members_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_account_at" ON "activity_log" USING btree ("account_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_card_at" ON "activity_log" USING btree ("card_id","at" DESC NULLS LAST) WHERE card_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_uq" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_uq" ON "invitations" USING btree ("account_id","address") WHERE accepted_at is null and revoked_at is null;--> statement-breakpoint
CREATE INDEX "invitations_account_idx" ON "invitations" USING btree ("account_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "members_phone_uq" ON "members" USING btree ("merchant_id","phone_prefix","phone") WHERE status <> 'REMOVED';--> statement-breakpoint
CREATE UNIQUE INDEX "members_email_uq" ON "members" USING btree ("merchant_id","email") WHERE status <> 'REMOVED';--> statement-breakpoint
CREATE UNIQUE INDEX "members_owner_uq" ON "members" USING btree ("account_id") WHERE role = 'OWNER';--> statement-breakpoint
CREATE INDEX "members_account_idx" ON "members" USING btree ("account_id");--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_holder_member_id_members_id_fk" FOREIGN KEY ("holder_member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_attempts" ADD CONSTRAINT "login_attempts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reset_tickets" ADD CONSTRAINT "reset_tickets_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trusted_devices" ADD CONSTRAINT "trusted_devices_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cards_holder" ON "cards" USING btree ("holder_member_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "login_attempts_member_at" ON "login_attempts" USING btree ("member_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sessions_member_idx" ON "sessions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "trusted_devices_member_idx" ON "trusted_devices" USING btree ("member_id");--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "phone_prefix";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "phone";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "email";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "password_hash";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "trx_password_hash";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "failed_logins";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "failed_window_start";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "locked_until";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "trx_failed_tries";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "trx_failed_window_start";--> statement-breakpoint
ALTER TABLE "accounts" DROP COLUMN "trx_locked_until";